import Foundation
import Testing
@testable import Milepost

/// Kills a writer with `SIGKILL` at each fail point of the state's replacement, by running
/// `StoreCrashChild` in a copy of this test binary with `MILEPOST_FAILPOINT` set, then checks
/// what the next process sees.
@Suite struct StoreCrashTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    @Test(arguments: [
        ("state-after-temp-write", false),
        ("state-before-log", false),
        ("state-after-rename", true),
    ])
    func killedWriterLeavesTheOldOrTheNewStateAndAFreeLock(failPoint: String, renamed: Bool) async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let old = try await StoreCrashChild.committedOldState(in: store)

        let child = try StoreCrashChild.commit(in: directory, killedAt: failPoint)
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(leftovers.contains { $0.hasPrefix("state.json.tmp.") } == !renamed)
        #expect(try await store.lockHolder() == nil)  // The kernel dropped the dead writer's lock.
        let next = try await store.lock(timeout: .zero, holder: StoreFixture.holder(run: "run-next"))
        #expect(try await next.readState() == (renamed ? StoreFixture.state : old))
        await next.release()
        // Past the rename the commit's line in state.log is durable: its record reaches the journal once.
        #expect(try await store.readJournal() == (renamed ? [StoreFixture.record(.stepSucceeded, step: "2.1.0/reindex")] : []))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            == (renamed ? ["journal.jsonl", "lock", "state.json"] : ["lock", "state.json"]))
    }
}

/// The writer killed by `StoreCrashTests`; runs only in the child process.
@Suite struct StoreCrashChild {
    static let storeVariable = "MILEPOST_TEST_CRASH_STORE"
    static let durabilityVariable = "MILEPOST_TEST_CRASH_DURABILITY"

    /// Commits the state the killed writer replaces (version 1.0.0) to `store` and releases the lock.
    static func committedOldState(in store: FileStore) async throws -> StoredState {
        let old = StoredState(app: "shop", version: Version("1.0.0"), updatedAt: Timestamp("2026-01-01T00:00:00.000Z")!)
        let first = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        try await first.commit(old, journal: [])
        await first.release()
        return old
    }

    /// Runs `commitUntilKilled` in a copy of this test binary on the store in `directory`, with
    /// `MILEPOST_FAILPOINT` set to `failPoint`, and waits for it to end. `processDurable`: the
    /// commit is a `.process` one.
    static func commit(in directory: String, killedAt failPoint: String, processDurable: Bool = false) throws -> Process {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "StoreCrashChild/commitUntilKilled"]
        child.environment = ProcessInfo.processInfo.environment.merging(
            ["MILEPOST_FAILPOINT": failPoint, storeVariable: directory, durabilityVariable: processDurable ? "process" : "disk"]
        ) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        return child
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[storeVariable] != nil))
    func commitUntilKilled() async throws {
        let directory = try #require(ProcessInfo.processInfo.environment[Self.storeVariable])
        let locked = try await FileStore(path: directory).lock(timeout: .seconds(5), holder: StoreFixture.holder())
        let durability: CommitDurability = ProcessInfo.processInfo.environment[Self.durabilityVariable] == "process" ? .process : .disk
        try await locked.commit(StoreFixture.state, journal: [StoreFixture.record(.stepSucceeded, step: "2.1.0/reindex")], durability: durability)
        Issue.record("MILEPOST_FAILPOINT did not kill the process")
    }
}

/// Kills a writer in the windows of `state.log`, in a child process as `StoreCrashTests` does.
@Suite struct StateLogCrashTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    /// After the log's fdatasync the commit counts: a reader without the lock sees it in the log
    /// before `state.json` does; the next holder replays it (the record reaches the journal once)
    /// and removes the log. A torn line counts for nothing.
    @Test(arguments: [("state-after-log-sync", true), ("state-log-torn", false)])
    func theLogLineDecidesWhetherTheCommitHappened(failPoint: String, committed: Bool) async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        let old = try await StoreCrashChild.committedOldState(in: store)
        #expect(!FileManager.default.fileExists(atPath: directory + "/state.log"), "a release removes the log")

        let child = try StoreCrashChild.commit(in: directory, killedAt: failPoint)
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL)
        #expect(FileManager.default.fileExists(atPath: directory + "/state.log"))

        let expected = committed ? StoreFixture.state : old
        #expect(try await store.readState() == expected)
        let next = try await store.lock(timeout: .zero, holder: StoreFixture.holder(run: "run-next"))
        #expect(try await next.readState() == expected)
        await next.release()
        #expect(try await store.readState() == expected)
        #expect(try await store.readJournal() == (committed ? [StoreFixture.record(.stepSucceeded, step: "2.1.0/reindex")] : []))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            == (committed ? ["journal.jsonl", "lock", "state.json"] : ["lock", "state.json"]))
    }

    /// A `.process` commit is left to the page cache, not synced: a writer killed after it still
    /// committed it (the kernel keeps what the process wrote), for readers and for the next holder.
    @Test func aProcessCommitOutlivesTheWriter() async throws {
        let directory = scratch.directory
        let store = FileStore(path: directory)
        _ = try await StoreCrashChild.committedOldState(in: store)

        let child = try StoreCrashChild.commit(in: directory, killedAt: "state-after-log-sync", processDurable: true)
        #expect(child.terminationReason == .uncaughtSignal && child.terminationStatus == SIGKILL)
        #expect(try await store.readState() == StoreFixture.state)
        let next = try await store.lock(timeout: .zero, holder: StoreFixture.holder(run: "run-next"))
        #expect(try await next.readState() == StoreFixture.state)
        await next.release()
        #expect(try await store.readJournal() == [StoreFixture.record(.stepSucceeded, step: "2.1.0/reindex")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["journal.jsonl", "lock", "state.json"])
    }
}
