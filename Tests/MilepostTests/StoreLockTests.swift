import Foundation
import Testing
@testable import Milepost

@Suite struct StoreLockTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    @Test func secondStoreTimesOutNamingTheHolderThenSucceedsAfterRelease() async throws {
        let directory = scratch.directory
        let first = FileStore(path: directory)
        let second = FileStore(path: directory)
        let held = try await first.lock(timeout: .zero, holder: StoreFixture.holder(run: "run-first"))

        let start = ContinuousClock.now
        let error = try await #require(throws: StoreError.self) {
            try await second.lock(timeout: .milliseconds(300), holder: StoreFixture.holder(run: "run-second"))
        }
        #expect(ContinuousClock.now - start >= .milliseconds(300))
        #expect(
            error
                == .lockTimeout(
                    location: directory, waited: .milliseconds(300),
                    holder: StoreFixture.holder(run: "run-first")))
        #expect(error.description.contains("pid 4242 on test-host"))
        #expect(error.description.contains("run-first"))

        await held.release()
        let taken = try await second.lock(timeout: .milliseconds(300), holder: StoreFixture.holder(run: "run-second"))
        #expect(try await first.lockHolder() == StoreFixture.holder(run: "run-second"))
        await taken.release()
    }

    @Test func waiterGetsTheLockWhenTheHolderReleases() async throws {
        let directory = scratch.directory
        let held = try await FileStore(path: directory).lock(timeout: .zero, holder: StoreFixture.holder())
        let waiter = Task {
            try await FileStore(path: directory).lock(timeout: .seconds(5), holder: StoreFixture.holder(run: "run-b"))
        }
        try await Task.sleep(for: .milliseconds(150))
        await held.release()
        let taken = try await waiter.value
        #expect(try await FileStore(path: directory).lockHolder() == StoreFixture.holder(run: "run-b"))
        await taken.release()
    }

    @Test func lockHolderWhileHeldAndNilAfterRelease() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        #expect(try await store.lockHolder() == StoreFixture.holder())

        await locked.release()
        await locked.release()  // A second release is harmless.
        #expect(try await store.lockHolder() == nil)
        #expect(StoreFixture.exists(directory + "/lock"))
    }

    @Test func lockCreatesMissingParents() async throws {
        let directory = scratch.directory
        let nested = directory + "/a/b"
        let locked = try await FileStore(path: nested).lock(timeout: .zero, holder: StoreFixture.holder())
        await locked.release()
        #expect(StoreFixture.exists(nested + "/lock"))
    }

    @Test func staleTempFilesAreRemovedWhenTheLockIsTaken() async throws {
        let directory = scratch.directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try StoreFixture.write(Array("{\"format\":".utf8), to: directory + "/state.json.tmp.99.12345")
        try StoreFixture.write(Array("keep".utf8), to: directory + "/notes.txt")

        let locked = try await FileStore(path: directory).lock(timeout: .zero, holder: StoreFixture.holder())
        await locked.release()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["lock", "notes.txt"])
    }

    @Test func ioFailuresNameThePathAndTheReason() async throws {
        let directory = scratch.directory
        // A file where the store directory should be.
        try StoreFixture.write([], to: directory)
        let error = try await #require(throws: StoreError.self) {
            try await FileStore(path: directory).lock(timeout: .zero, holder: StoreFixture.holder())
        }
        #expect(error == .io(location: directory, reason: .system(call: "open", errno: .notDirectory)))
        #expect(error.description == "I/O error on the store \(directory): open: Not a directory")
    }
}
