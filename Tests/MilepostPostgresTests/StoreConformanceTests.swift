import Foundation
import Milepost
import Synchronization
import Testing

/// One suite, every store: the file store, the SQLite store and the PostgreSQL store must behave
/// the same. Without a PostgreSQL test server it runs over the other two (`StoreKind.available`).
@Suite
struct StoreConformanceTests {
    @Test(arguments: StoreKind.available)
    func readsOfAFreshStoreFindNothingAndCreateNothing(kind: StoreKind) async throws {
        let fixture = try kind.make()
        #expect(try await fixture.store.readState() == nil)
        #expect(try await fixture.store.readJournal() == [])
        #expect(try await fixture.store.lockHolder() == nil)
        #expect(try await fixture.isUntouched())
    }

    /// What each store offers beyond reads and checkpoints, as values (never found by a cast): a
    /// lease the runner races the run against, step transactions and scripts for `sql`-family
    /// steps (in the store's dialect), a synchronous head read for the pre-start fast path (every
    /// store: the server stores' in one connection and one query).
    @Test(arguments: StoreKind.available)
    func eachStoreOffersItsCapabilities(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let (lease, transactions, headRead, dialect): (Bool, Bool, Bool, ScriptDialect?) = switch kind {
        case .file: (false, false, true, nil)
        case .sqlite: (false, true, true, .sqlite)
        case .postgres: (true, true, true, .postgresql)
        case .mariadb: (true, true, true, .mariadb)
        }
        #expect((fixture.store.stateHeadReader != nil) == headRead)
        #expect(fixture.store.scriptDialect == dialect)
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        #expect((locked.lease != nil) == lease)
        #expect((locked.stepTransactions != nil) == transactions)
        #expect(locked.scripts?.dialect == dialect)
        await locked.release()
    }

    /// The pre-start fast path's head read says what the full read says, on every store, without
    /// creating anything or waiting for the lock: nothing for a fresh store; the version, the
    /// manifest's digest and no running step for an up-to-date one; a running step once one is marked.
    @Test(arguments: StoreKind.available)
    func theHeadReadAgreesWithTheFullRead(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let reader = try #require(fixture.store.stateHeadReader)
        #expect(try reader.read() == nil)
        #expect(try await fixture.isUntouched())
        var state = StoredState(
            app: "shop", version: Version("2.1.0"),
            completed: [
                CompletedStep(id: "2.0.0/backfill", at: Timestamp("2026-01-02T03:04:05.678Z")!, run: "run-a", fingerprint: "f1"),
                CompletedStep(id: "2.1.0/reindex", at: Timestamp("2026-01-02T03:05:00.000Z")!, run: "run-a", fingerprint: "f2", via: "resolved"),
            ],
            updatedAt: Timestamp("2026-01-02T03:06:00.000Z")!)
        state.plannedWith = ManifestDigest(digest: "sha256:ab", files: ["steps/reindex.sql"])
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        try await locked.commit(state, journal: [])
        let head = try #require(try reader.read())
        #expect(head == state.head)
        #expect(!head.hasStepInProgress && head.plannedWith == state.plannedWith)
        state.inProgress = InProgressStep(
            id: "2.2.0/warm", run: "run-a", since: Timestamp("2026-01-02T03:07:00.000Z")!, attempt: 1, host: "test-host", pid: 4242)
        try await locked.commit(state, journal: [])
        #expect(try reader.read()?.hasStepInProgress == true)
        await locked.release()
    }

    @Test(arguments: StoreKind.available)
    func commitThenReadBackEverything(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let records = [ConformanceStore.record(.runStarted), ConformanceStore.record(.stepSucceeded, step: "2.1.0/reindex")]
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        #expect(try await locked.readState() == nil)
        try await locked.commit(ConformanceStore.state, journal: records)
        #expect(try await locked.readState() == ConformanceStore.state)
        await locked.release()

        #expect(try await fixture.reopen().readState() == ConformanceStore.state)
        #expect(try await fixture.reopen().readJournal() == records)
    }

    @Test(arguments: StoreKind.available)
    func commitReplacesTheWholeState(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        try await locked.commit(ConformanceStore.state, journal: [])
        let smaller = StoredState(app: nil, version: Version("3.0.0"), updatedAt: Timestamp("2026-02-01T00:00:00.000Z")!)
        try await locked.commit(smaller, journal: [])
        await locked.release()
        #expect(try await fixture.store.readState() == smaller)
    }

    @Test(arguments: StoreKind.available)
    func checkpointsGrowTheCompletedStepsInOrder(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        var state = StoredState(app: "shop", version: Version("1"), updatedAt: Timestamp("2026-02-01T00:00:00.000Z")!)
        for index in 1...4 {
            state.completed.append(CompletedStep(id: "2/step-\(index)", at: Timestamp("2026-02-01T00:00:0\(index).000Z")!, run: "run-a", fingerprint: "f\(index)"))
            try await locked.commit(state, journal: [ConformanceStore.record(.stepSucceeded, step: "2/step-\(index)")])
        }
        await locked.release()
        #expect(try await fixture.reopen().readState() == state)
        #expect(try await fixture.store.readJournal().map(\.step) == (1...4).map { "2/step-\($0)" })
    }

    /// A completed step dropped from the list (the PostgreSQL store: a row deleted by hand, a
    /// rewrite) leaves the store able to record more, in order, by the same and by a later holder.
    @Test(arguments: StoreKind.available)
    func completedStepsGrowAgainAfterOneIsDropped(kind: StoreKind) async throws {
        let fixture = try kind.make()
        func step(_ index: Int) -> CompletedStep {
            CompletedStep(id: "2/step-\(index)", at: Timestamp("2026-02-01T00:00:0\(index).000Z")!, run: "run-a", fingerprint: "f\(index)")
        }
        var state = StoredState(app: "shop", version: Version("1"), completed: (1...3).map(step), updatedAt: Timestamp("2026-02-01T00:00:00.000Z")!)
        let first = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        try await first.commit(state, journal: [])
        state.completed.removeFirst()
        try await first.commit(state, journal: [])
        state.completed.append(step(4))
        try await first.commit(state, journal: [])
        await first.release()
        let second = try await fixture.reopen().lock(timeout: .zero, holder: TestServer.holder(run: "run-b"))
        #expect(try await second.readState() == state)
        state.completed.append(step(5))
        try await second.commit(state, journal: [])
        await second.release()
        #expect(try await fixture.reopen().readState()?.completed.map(\.id) == (2...5).map { "2/step-\($0)" })
    }

    @Test(arguments: StoreKind.available)
    func appendKeepsTheJournalInOrder(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        let events: [JournalRecord.Event] = [.runStarted, .stepStarted, .stepFailed, .runFinished]
        try await locked.append(events.prefix(2).map { ConformanceStore.record($0) })
        try await locked.append([])
        try await locked.append(events.suffix(2).map { ConformanceStore.record($0) })
        await locked.release()
        #expect(try await fixture.store.readJournal().map(\.event) == events)
        #expect(try await fixture.store.readState() == nil)
    }

    @Test(arguments: StoreKind.available)
    func secondLockTimesOutNamingTheHolderThenSucceedsAfterRelease(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let held = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-first"))
        #expect(try await fixture.reopen().lockHolder() == TestServer.holder(run: "run-first"))

        let error = try await #require(throws: StoreError.self) {
            try await fixture.reopen().lock(timeout: .milliseconds(300), holder: TestServer.holder(run: "run-second"))
        }
        #expect(error == .lockTimeout(
            location: fixture.store.location, waited: .milliseconds(300), holder: TestServer.holder(run: "run-first")))

        await held.release()
        await held.release()  // A second release is harmless.
        #expect(try await fixture.store.lockHolder() == nil)
        let taken = try await fixture.reopen().lock(timeout: .milliseconds(300), holder: TestServer.holder(run: "run-second"))
        #expect(try await fixture.store.lockHolder() == TestServer.holder(run: "run-second"))
        await taken.release()
    }

    @Test(arguments: StoreKind.available)
    func aWaiterGetsTheLockWhenTheHolderReleases(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let held = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        let other = fixture.reopen()
        let waiter = Task { try await other.lock(timeout: .seconds(10), holder: TestServer.holder(run: "run-b")) }
        try await Task.sleep(for: .milliseconds(150))
        await held.release()
        let taken = try await waiter.value
        #expect(try await fixture.store.lockHolder() == TestServer.holder(run: "run-b"))
        await taken.release()
    }

    @Test(arguments: StoreKind.available)
    func concurrentRunnersRunEveryStepExactlyOnce(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let ran = Mutex<[String]>([])
        var registry = StepRegistry.standard
        registry.register("note") { context in ran.withLock { $0.append(context.id) } }
        let manifest = try Manifest.parse(ManifestSource(path: "/tmp/milepost.yaml", bytes: Array("""
            app: shop
            migrations:
              "1.1": [note]
              "1.2": [{name: note, id: second}, {name: note, id: third}]
            """.utf8)), registry: registry)

        let outcomes = try await withThrowingTaskGroup(of: RunReport.Outcome.self) { group in
            for _ in 0..<6 {
                let runner = Runner(store: fixture.reopen())
                group.addTask { try await runner.run(to: Version("1.2")) { manifest }.outcome }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 == .succeeded }.count == 1)
        #expect(outcomes.filter { $0 == .upToDate }.count == 5)
        #expect(ran.withLock { $0 } == ["1.1/note", "1.2/second", "1.2/third"])
        let state = try #require(try await fixture.store.readState())
        #expect(state.version.text == "1.2")
        #expect(state.completed.map(\.id) == ["1.1/note", "1.2/second", "1.2/third"])
    }
}
