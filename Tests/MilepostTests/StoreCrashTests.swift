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
        ("state-after-fsync", false),
        ("state-after-rename", true),
    ])
    func killedWriterLeavesTheOldOrTheNewStateAndAFreeLock(failPoint: String, renamed: Bool) async throws {
        let directory = scratch.directory
        let store = FileStore(directory: directory)
        let old = StoredState(app: "shop", version: Version("1.0.0"), updatedAt: Timestamp("2026-01-01T00:00:00.000Z")!)
        let first = try await store.lock(timeout: .zero, holder: StoreFixture.holder())
        try await first.commit(old, journal: [])
        await first.release()

        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "StoreCrashChild/commitUntilKilled"]
        child.environment = ProcessInfo.processInfo.environment.merging(
            ["MILEPOST_FAILPOINT": failPoint, StoreCrashChild.storeVariable: directory]
        ) { $1 }
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)

        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(leftovers.contains { $0.hasPrefix("state.json.tmp.") } == !renamed)
        #expect(try await store.lockHolder() == nil)  // The kernel dropped the dead writer's lock.
        let next = try await store.lock(timeout: .zero, holder: StoreFixture.holder(run: "run-next"))
        #expect(try await next.readState() == (renamed ? StoreFixture.state : old))
        await next.release()
        #expect(try await store.readJournal() == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["lock", "state.json"])
    }
}

/// The writer killed by `StoreCrashTests`; runs only in the child process.
@Suite struct StoreCrashChild {
    static let storeVariable = "MILEPOST_TEST_CRASH_STORE"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[storeVariable] != nil))
    func commitUntilKilled() async throws {
        let directory = try #require(ProcessInfo.processInfo.environment[Self.storeVariable])
        let locked = try await FileStore(directory: directory).lock(timeout: .seconds(5), holder: StoreFixture.holder())
        try await locked.commit(StoreFixture.state, journal: [StoreFixture.record(.stepSucceeded, step: "2.1.0/reindex")])
        Issue.record("MILEPOST_FAILPOINT did not kill the process")
    }
}
