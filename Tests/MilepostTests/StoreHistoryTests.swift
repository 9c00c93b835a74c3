@testable import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// A plan reads its store's journal at most once, however many of its rules need it
/// (`StoreHistory`): here the late-step rule (a step below the stored version never ran) and the
/// approval rule (a step still to run requires one).
@Suite struct StoreHistoryTests {
    /// A store that counts its whole-journal reads.
    struct CountingStore: MilepostStore {
        final class Reads: Sendable {
            let count = Mutex(0)
        }

        let inner: any MilepostStore
        let reads = Reads()

        var location: String { inner.location }
        func readState() async throws -> StoredState? { try await inner.readState() }
        func readJournal() async throws -> [JournalRecord] {
            reads.count.withLock { $0 += 1 }
            return try await inner.readJournal()
        }
        func lockHolder() async throws -> LockHolder? { try await inner.lockHolder() }
        func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore {
            try await inner.lock(timeout: timeout, holder: holder)
        }
    }

    @Test func aPlanWhoseRulesBothNeedTheJournalReadsItOnce() async throws {
        let fixture = try RunnerFixture()
        _ = try await fixture.run(try fixture.manifest("""
            migrations:
              "2.0": [{name: note, id: first}]
            """), to: "2.0")
        let manifest = try fixture.manifest("""
            migrations:
              "1.5": [{name: note, id: added-later}]
              "2.0": [{name: note, id: first}]
              "3.0": [{name: note, id: drop, requires: approval}]
            """)
        let store = CountingStore(inner: fixture.store)
        let plan = try await Runner(store: store).plan(manifest, to: Version("3.0"))
        #expect(plan.entries.map(\.late) == [.warn, nil, nil])
        #expect(plan.entries.map(\.status).last == .awaitingApproval)
        #expect(store.reads.count.withLock { $0 } == 1)
    }
}
