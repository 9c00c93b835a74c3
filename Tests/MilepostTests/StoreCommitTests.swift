import Foundation
import Testing
@testable import Milepost

@Suite struct StoreCommitTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    @Test func commitThenReadState() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        #expect(try await locked.readState() == nil)

        try await locked.commit(StoreFixture.state, journal: [StoreFixture.record(.stepSucceeded, step: "2.1.0/reindex")])
        #expect(try await locked.readState() == StoreFixture.state)
        await locked.release()

        #expect(try await FileStore(path: directory).readState() == StoreFixture.state)
        #expect(try await store.readJournal() == [StoreFixture.record(.stepSucceeded, step: "2.1.0/reindex")])
    }

    @Test func commitReplacesTheWholeState() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        try await locked.commit(StoreFixture.state, journal: [])
        let smaller = StoredState(app: nil, version: Version("3.0.0"), updatedAt: Timestamp("2026-02-01T00:00:00.000Z")!)
        try await locked.commit(smaller, journal: [])
        await locked.release()

        #expect(try await store.readState() == smaller)
        #expect(try await store.readJournal() == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["lock", "state.json"])
    }

    @Test func stateIsPrettyJSONWithTheDocumentedKeys() async throws {
        let directory = scratch.directory
        let locked = try await FileStore(path: directory).lock(timeout: .zero, holder: StoreFixture.holder())
        try await locked.commit(StoreFixture.state, journal: [])
        await locked.release()

        let text = String(decoding: try StoreFixture.bytes(directory + "/state.json"), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"app\" : \"shop\",\n  \"completed\" : [\n"))
        #expect(text.hasSuffix("\n}\n"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(
            Set(object.keys)
                == ["format", "app", "version", "completed", "in_progress", "failed", "updated_at"])
        #expect(object["format"] as? Int == StoredState.currentFormat)
        let completed = try #require(object["completed"] as? [[String: Any]])
        #expect(Set(completed[1].keys) == ["id", "at", "run", "fingerprint", "via"])
        let inProgress = try #require(object["in_progress"] as? [String: Any])
        #expect(Set(inProgress.keys) == ["id", "run", "since", "attempt", "host", "pid"])
    }

    @Test func stateFileIsPrivateToItsOwner() async throws {
        let directory = scratch.directory
        let locked = try await FileStore(path: directory).lock(timeout: .zero, holder: StoreFixture.holder())
        try await locked.commit(StoreFixture.state, journal: [])
        await locked.release()

        let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/state.json")
        #expect(attributes[.posixPermissions] as? Int == 0o600)
    }
}

/// `state.log` while the lock is held: it grows by one line a commit and is replayed (made durable
/// in `state.json` and the journal, then removed) once it is `StateLog.replayLength` long.
@Suite struct StateLogLengthTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    @Test func aLongLogIsReplayedWhileTheLockIsHeld() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let logPath = directory + "/state.log"
        // A state of about 1 MiB: the fifth commit takes the log past 4 MiB.
        let app = String(repeating: "a", count: 1 << 20)
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        var records: [JournalRecord] = []
        for index in 1...6 {
            let version = try Version(parsing: "1.\(index)")
            let state = StoredState(app: app, version: version, updatedAt: Timestamp("2026-01-01T00:00:00.000Z")!)
            let record = StoreFixture.record(.stepSucceeded, step: "1.\(index)/step")
            records.append(record)
            try await locked.commit(state, journal: [record])
            #expect(FileManager.default.fileExists(atPath: logPath) == (index != 4), "commit \(index)")
            #expect(try await store.readState()?.version == version)
        }
        await locked.release()
        #expect(!FileManager.default.fileExists(atPath: logPath))
        #expect(try await store.readState()?.version == Version("1.6"))
        #expect(try await store.readJournal() == records)
    }
}
