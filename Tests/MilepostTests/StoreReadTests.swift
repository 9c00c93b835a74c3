import Foundation
import Testing
@testable import Milepost

@Suite struct StoreReadTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    @Test func readsCreateNothing() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        #expect(try await store.readState() == nil)
        #expect(try await store.readJournal() == [])
        #expect(try await store.lockHolder() == nil)
        #expect(!StoreFixture.exists(directory))
    }

    @Test func readsLeaveAnIdleLockFileAlone() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        try await store.lock(timeout: .zero, holder: StoreFixture.holder()).release()
        #expect(try await store.lockHolder() == nil)
        #expect(try StoreFixture.bytes(directory + "/lock") == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["lock"])
    }

    @Test(arguments: [
        ("", "empty"),
        ("{\"format\": 1, \"version\": ", "not valid JSON"),
        ("[1, 2]", "Expected"),
        ("{\"format\": 1, \"version\": \"1.0.0\", \"completed\": [], \"updated_at\": 5}", "`updated_at`"),
        ("{\"format\": 1, \"version\": \"1.0.0\", \"completed\": [], \"updated_at\": \"2026-02-30T00:00:00.000Z\"}",
         "`updated_at`: \"2026-02-30T00:00:00.000Z\" is not a timestamp"),
        ("{\"format\": 1, \"version\": \"1.0.0\", \"updated_at\": \"2026-01-02T03:04:05.678Z\"}", "`completed` is missing"),
        ("{\"format\": 2, \"version\": \"1.0.0\", \"completed\": [], \"updated_at\": \"2026-01-02T03:04:05.678Z\"}", "format 2"),
        ("{\"format\": 0, \"version\": \"1.0.0\", \"completed\": [], \"updated_at\": \"2026-01-02T03:04:05.678Z\"}", "format 0"),
    ])
    func unreadableStateIsRefusedAndLeftUntouched(content: String, reasonMentions: String) async throws {
        let directory = scratch.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/state.json"
        try StoreFixture.write(Array(content.utf8), to: path)
        let store = FileStore(path: directory)

        let error = try await #require(throws: StoreError.self) { try await store.readState() }
        guard case .unreadableState(let location, let reason) = error else {
            Issue.record("expected unreadableState, got \(error)")
            return
        }
        #expect(location == path)
        #expect(reason.description.contains(reasonMentions), "\(reason)")

        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        await #expect(throws: StoreError.self) { try await locked.readState() }
        await #expect(throws: StoreError.self) { try await locked.commit(StoreFixture.state, journal: []) }
        await locked.release()
        #expect(try StoreFixture.bytes(path) == Array(content.utf8))
    }

    @Test func unreadableStateFileIsUnreadableNotAbsent() async throws {
        let directory = scratch.directory
        // A directory where the file should be: exists, cannot be read as a file.
        try FileManager.default.createDirectory(
            atPath: directory + "/state.json", withIntermediateDirectories: true)
        await #expect(throws: StoreError.self) { try await FileStore(path: directory).readState() }
    }
}
