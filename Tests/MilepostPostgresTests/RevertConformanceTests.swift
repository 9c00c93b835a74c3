import Foundation
import Milepost
import Synchronization
import Testing
import MilepostPostgres

/// `Runner.revert` over every store: a revert registered with its step undoes the completed steps
/// newest first, is checkpointed like a run, and the unfinished-revert marks read back as written.
@Suite(.enabled(if: TestServer.isConfigured, TestServer.missing))
struct RevertConformanceTests {
    final class Calls: Sendable {
        let list = Mutex<[String]>([])
        func append(_ call: String) { list.withLock { $0.append(call) } }
        var all: [String] { list.withLock { $0 } }
    }

    static let manifest = """
        app: shop
        migrations:
          "1.0": [a]
          "2.0": [b, c]
          "3.0": [d]
        """

    /// Steps `a`…`d`, each registered with a revert; both record their calls.
    static func registry(_ calls: Calls) -> StepRegistry {
        var registry = StepRegistry()
        for name in ["a", "b", "c", "d"] {
            registry.register(name) { context in
                calls.append(context.id)
            } revert: { context in
                calls.append("undo \(context.id) \(context.from)→\(context.to)")
            }
        }
        return registry
    }

    static func load(_ registry: StepRegistry) throws -> Manifest {
        try Manifest.parse(ManifestSource(path: "/tmp/milepost.yaml", bytes: Array(manifest.utf8)), registry: registry)
    }

    @Test(arguments: StoreKind.allCases)
    func aRevertUndoesTheCompletedStepsAboveItsTargetNewestFirstAndARunRedoesThem(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let calls = Calls()
        let manifest = try Self.load(Self.registry(calls))
        let runner = Runner(store: fixture.store)
        #expect(try await runner.run(to: Version("2.0")) { manifest }.outcome == .succeeded)

        let plan = try await runner.revertPlan(manifest, to: Version("0.5"))
        #expect(plan.steps.map(\.id) == ["2.0/c", "2.0/b", "1.0/a"])
        #expect(plan.irreversible == [])
        let report = try await runner.revert(to: Version("0.5")) { manifest }
        #expect(report.outcome == .succeeded)
        #expect(report.steps.map(\.id) == ["2.0/c", "2.0/b", "1.0/a"])
        #expect(calls.all == ["1.0/a", "2.0/b", "2.0/c", "undo 2.0/c 2.0→0.5", "undo 2.0/b 2.0→0.5", "undo 1.0/a 2.0→0.5"])

        let state = try #require(try await fixture.reopen().readState())
        #expect(state.version == Version("0.5"))
        #expect(state.completed == [])
        #expect(state.reverting == nil && state.inProgress == nil && state.failed == nil)
        let journal = try await fixture.reopen().readJournal()
        let reverts = journal.filter { $0.event.rawValue.hasPrefix("revert-") }.map { "\($0.event.rawValue) \($0.step ?? "")" }
        #expect(reverts == [
            "revert-started 2.0/c", "revert-succeeded 2.0/c", "revert-started 2.0/b", "revert-succeeded 2.0/b",
            "revert-started 1.0/a", "revert-succeeded 1.0/a",
        ])
        #expect(journal.last?.event == .runFinished && journal.last?.from == "2.0" && journal.last?.to == "0.5")

        // Reverted steps are no longer completed: the next run runs them again.
        #expect(try await runner.run(to: Version("2.0")) { manifest }.steps.map(\.id) == ["1.0/a", "2.0/b", "2.0/c"])
        #expect(try await fixture.reopen().readState()?.completed.map(\.id) == ["1.0/a", "2.0/b", "2.0/c"])
    }

    @Test(arguments: StoreKind.allCases)
    func aStepWithoutARevertRefusesTheWholeRevertBeforeAnyRuns(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let calls = Calls()
        var registry = Self.registry(calls)
        registry.register("final") { context in calls.append(context.id) }
        let manifest = try Manifest.parse(
            ManifestSource(path: "/tmp/milepost.yaml", bytes: Array((Self.manifest + "\n  \"1.5\": [final]\n").utf8)),
            registry: registry)
        let runner = Runner(store: fixture.store)
        #expect(try await runner.run(to: Version("2.0")) { manifest }.outcome == .succeeded)
        let before = try await fixture.reopen().readState()
        let journal = try await fixture.reopen().readJournal()
        await #expect(throws: RevertError.irreversible([.init(id: "1.5/final", reason: .noRevert)])) {
            try await runner.revert(to: Version("1.0")) { manifest }
        }
        #expect(calls.all == ["1.0/a", "1.5/final", "2.0/b", "2.0/c"])
        #expect(try await fixture.reopen().readState() == before)
        #expect(try await fixture.reopen().readJournal() == journal)
        // Above the step without a revert, a revert goes ahead.
        #expect(try await runner.revert(to: Version("1.5")) { manifest }.outcome == .succeeded)
    }

    @Test(arguments: StoreKind.allCases)
    func theMarksOfAnUnfinishedRevertReadBackAsWritten(kind: StoreKind) async throws {
        let fixture = try kind.make()
        var state = ConformanceStore.state
        state.reverting = UnfinishedRevert(to: Version("1.0"), run: "run-r", since: Timestamp("2026-01-03T00:00:00.000Z")!)
        state.inProgress?.direction = .revert
        state.failed?.direction = .revert
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-r"))
        try await locked.commit(state, journal: [ConformanceStore.record(.revertStarted, step: "2.1.0/warm")])
        await locked.release()
        #expect(try await fixture.reopen().readState() == state)
        #expect(try await fixture.reopen().readJournal().map(\.event) == [.revertStarted])
    }

    @Test func aPostgreSQLStoreFromBeforeRevertsIsReadAsItIsAndGetsItsColumnWithTheLock() async throws {
        let fixture = try StoreKind.postgres.make()
        let schema = try #require(fixture.store as? PostgresStore).schema
        let manifest = try Self.load(Self.registry(Calls()))
        let runner = Runner(store: fixture.store)
        #expect(try await runner.run(to: Version("2.0")) { manifest }.outcome == .succeeded)
        let column = "SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'state' AND column_name = 'reverting'"
        #expect(try await TestServer.admin(column, [schema])[0][0] == "1")
        _ = try await TestServer.admin("ALTER TABLE \"\(schema)\".state DROP COLUMN reverting")

        #expect(try await fixture.reopen().readState()?.version == Version("2.0"))
        #expect(try await runner.revert(to: Version("1.0")) { manifest }.outcome == .succeeded)
        #expect(try await TestServer.admin(column, [schema])[0][0] == "1")
        #expect(try await fixture.reopen().readState()?.completed.map(\.id) == ["1.0/a"])
    }
}
