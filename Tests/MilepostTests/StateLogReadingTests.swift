import Foundation
import Testing
@testable import Milepost

/// Readers without the lock (`status`, the pre-start fast path) while `state.log` exists: they take
/// the state from the log's last complete line, read from the end of the file, as the holder's
/// replay would; a torn or half-written last line is not a commit.
@Suite struct StateLogReadingTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    var store: FileStore { FileStore(path: scratch.directory) }
    var logPath: String { scratch.directory + "/state.log" }

    /// The holder's commits, the second planned with a manifest, while it still holds the lock:
    /// `state.json` shows them too (written without an fsync), but the log is what readers trust.
    func commitTwice() async throws -> any LockedStore {
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        var state = StoredState(app: "titi", version: try Version(parsing: "1.0"), updatedAt: Timestamp("2026-01-01T00:00:00.000Z")!)
        try await locked.commit(state, journal: [StoreFixture.record(.stepSucceeded, step: "1.0/a")])
        state.version = try Version(parsing: "2.0")
        state.plannedWith = ManifestDigest(digest: "sha256:00", files: [])
        try await locked.commit(state, journal: [StoreFixture.record(.stepSucceeded, step: "2.0/b")])
        return locked
    }

    @Test func theHeadOfTheHoldersLastCommitIsReadFromTheLog() async throws {
        let locked = try await commitTwice()
        #expect(FileManager.default.fileExists(atPath: logPath))
        let head = try #require(try store.readStateHeadSynchronously())
        #expect(head == StoredStateHead(
            format: StoredState.currentFormat, app: "titi", version: Version("2.0"), hasStepInProgress: false,
            plannedWith: ManifestDigest(digest: "sha256:00", files: [])))
        #expect(try await store.readState()?.version == Version("2.0"))
        await locked.release()
        #expect(!FileManager.default.fileExists(atPath: logPath))
        #expect(try store.readStateHeadSynchronously() == head)
    }

    /// What a crash leaves: the last line is the commit, whatever `state.json` says.
    @Test func theLogWinsOverAStaleStateFile() async throws {
        let locked = try await commitTwice()
        let log = try Data(contentsOf: URL(fileURLWithPath: logPath))
        await locked.release()
        // The first commit's state in state.json, both commits in the log: as a kill -9 after the
        // second line's fdatasync and before the rename leaves them.
        let lines = log.split(separator: UInt8(ascii: "\n"))
        let first = try JSONSerialization.jsonObject(with: Data(lines[0])) as! [String: Any]
        try JSONSerialization.data(withJSONObject: first["state"]!).write(to: URL(fileURLWithPath: scratch.directory + "/state.json"))
        try log.write(to: URL(fileURLWithPath: logPath))
        #expect(try store.readStateHeadSynchronously()?.version == Version("2.0"))
        #expect(try await store.readState()?.version == Version("2.0"))
    }

    /// A torn last line (no newline) was never committed: the line before it is the last commit.
    @Test func aTornLastLineIsNotACommit() async throws {
        let locked = try await commitTwice()
        try append(#"{"journal_offset":0,"records":[],"state":{"format":1,"version":"3.0""#)
        #expect(try store.readStateHeadSynchronously()?.version == Version("2.0"))
        #expect(try await store.readState()?.version == Version("2.0"))
        await locked.release()
    }

    /// A complete last line that is not a commit (a power cut half-wrote the bytes after the last
    /// fdatasync): the fast path declines (nil: the full path decides), and `readState` reads the
    /// whole log, which finds the commit before it.
    @Test func aHalfWrittenLastLineSendsTheFastPathToTheFullRead() async throws {
        let locked = try await commitTwice()
        try append(#"{"journal_offset":0,"records":[],"state":{"format":1,"ver"# + "\n")
        #expect(try store.readStateHeadSynchronously() == nil)
        #expect(try await store.readState()?.version == Version("2.0"))
        await locked.release()
    }

    /// A complete last line is a commit for the fast path only when the full decoder takes it as
    /// one: with `journal_offset` and an array of `records` beside the state. Otherwise the fast
    /// path declines and `readState` takes the commit before it, as the replay would.
    @Test(arguments: [
        (change: "none", version: "3.0"), (change: "no journal_offset", version: nil),
        (change: "records not an array", version: nil),
    ] as [(change: String, version: String?)])
    func aLastLineIsACommitOnlyWithAllItsFields(change: String, version: String?) async throws {
        let locked = try await commitTwice()
        let log = try Data(contentsOf: URL(fileURLWithPath: logPath))
        let last = try #require(log.split(separator: UInt8(ascii: "\n")).last)
        var entry = try #require(try JSONSerialization.jsonObject(with: Data(last)) as? [String: Any])
        var state = try #require(entry["state"] as? [String: Any])
        state["version"] = "3.0"
        entry["state"] = state
        switch change {
        case "no journal_offset": entry["journal_offset"] = nil
        case "records not an array": entry["records"] = "none"
        default: break
        }
        try append(String(decoding: try JSONSerialization.data(withJSONObject: entry), as: UTF8.self) + "\n")
        #expect(try store.readStateHeadSynchronously()?.version == version.flatMap(Version.init))
        #expect(try await store.readState()?.version == Version(version ?? "2.0"))
        await locked.release()
    }

    /// A newer Milepost's commit (a format this version does not know) is refused as such even when
    /// the rest of it does not decode as this version's: taken for a half-written line, the reader
    /// would answer from the commit before it, and the replay would delete it.
    @Test func aCommitOfANewerFormatIsRefusedEvenWhenItDoesNotDecode() async throws {
        let locked = try await commitTwice()
        try append(#"{"journal_offset":0,"records":[],"state":{"format":2,"version":{"major":3}}}"# + "\n")
        let error = await #expect(throws: StoreError.self) { try await store.readState() }
        guard case .unreadableState(_, .unknownFormat(2)) = error else {
            Issue.record("expected the unknown format 2, got \(String(describing: error))")
            await locked.release()
            return
        }
        await locked.release()
    }

    /// A log whose only line is torn holds no commit: the fast path declines, `readState` reads
    /// `state.json`.
    @Test func aLogWithoutACompleteLineHoldsNoCommit() async throws {
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        try await locked.commit(StoreFixture.state, journal: [])
        await locked.release()
        try append(#"{"journal_offset":0"#)
        #expect(try store.readStateHeadSynchronously() == nil)
        #expect(try await store.readState() == StoreFixture.state)
    }

    /// A state line longer than a read chunk (64 KiB): the tail read goes back as far as it needs.
    @Test func aLastLineLongerThanAChunkIsReadWhole() async throws {
        let locked = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        for (index, size) in [100_000, 200_000].enumerated() {
            let state = StoredState(
                app: String(repeating: "a", count: size), version: try Version(parsing: "1.\(index)"),
                updatedAt: Timestamp("2026-01-01T00:00:00.000Z")!)
            try await locked.commit(state, journal: [])
        }
        let head = try #require(try store.readStateHeadSynchronously())
        #expect(head.version == Version("1.1"))
        #expect(head.app?.utf8.count == 200_000)
        #expect(try await store.readState()?.version == Version("1.1"))
        await locked.release()
    }

    private func append(_ text: String) throws {
        if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }
}
