import Milepost
import MilepostTestSupport
import MilepostTesting
import Synchronization
import Testing

/// `Runner.migrate(to:manifest:)`: one failure channel. A run that reaches its target returns; every
/// failing outcome throws `RunFailure`, with the step it is about and that step's own error, worded
/// as the journal words it; `run` still returns the whole report.
@Suite struct MigrateTests {
    enum NotesError: Error, Equatable, CustomStringConvertible {
        case diskFull(neededBytes: Int)
        var description: String {
            switch self { case .diskFull(let needed): "the disk is full (\(needed) bytes needed)" }
        }
    }

    static let yaml = """
        app: notes
        baseline: "2.0"
        migrations:
          "2.1": [removeEmptyNotes]
          "2.7": [archiveNotes]
        """

    /// Steps that record their ids; `archiveNotes` throws `NotesError.diskFull` while `full` is set.
    final class Notes: Sendable {
        let ran = Mutex<[String]>([])
        let full = Mutex(true)

        var registry: StepRegistry {
            var registry = StepRegistry()
            registry.register("removeEmptyNotes") { context in self.ran.withLock { $0.append(context.id) } }
            registry.register("archiveNotes") { context in
                if self.full.withLock({ $0 }) { throw NotesError.diskFull(neededBytes: 4096) }
                self.ran.withLock { $0.append(context.id) }
            }
            return registry
        }
    }

    @Test func aFailedStepThrowsOneErrorWithTheStepAndItsOwnError() async throws {
        let notes = Notes()
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.yaml, registry: notes.registry)
        let runner = Runner(store: fixture.store)

        let failure = try #require(await #expect(throws: RunFailure.self) {
            try await runner.migrate(to: "2.7") { manifest }
        })
        #expect(failure.outcome == .failed)
        #expect(failure.step == "2.7/archiveNotes")
        #expect(failure.underlying as? NotesError == .diskFull(neededBytes: 4096))
        #expect("\(failure)" == "step 2.7/archiveNotes failed: the disk is full (4096 bytes needed)")
        #expect(failure.report.steps.map { "\($0.id) \($0.status.rawValue)" } == ["2.1/removeEmptyNotes succeeded", "2.7/archiveNotes failed"])
        #expect(try await fixture.state()?.version == "2.0")  // the stored version stays where it was
        // `catch` by the app's own type, through the one error.
        do {
            throw try #require(failure.underlying)
        } catch NotesError.diskFull(let needed) {
            #expect(needed == 4096)
        }

        // `run` keeps returning the whole report, failure or not.
        let report = try await runner.run(to: "2.7") { manifest }
        #expect(report.outcome == .failed)
        #expect(RunFailure(report)?.step == "2.7/archiveNotes")

        // Fixed: `migrate` returns, with the report of the run that got there.
        notes.full.withLock { $0 = false }
        let done = try await runner.migrate(to: "2.7") { manifest }
        #expect(done.outcome == .succeeded)
        #expect(done.steps.map(\.id) == ["2.7/archiveNotes"])
        #expect(try await runner.migrate(to: "2.7") { manifest }.outcome == .upToDate)
        #expect(RunFailure(done) == nil)
        #expect(notes.ran.withLock { $0 } == ["2.1/removeEmptyNotes", "2.7/archiveNotes"])
    }

    /// An interrupted step that is not idempotent blocks later runs: `migrate` throws, naming it,
    /// with the words of the journal's `run-finished` record; nothing ran.
    @Test func aBlockedRunThrowsNamingTheInterruptedStep() async throws {
        let notes = Notes()
        notes.full.withLock { $0 = false }
        let scenario = try await UpgradeScenario(manifest: Self.yaml, registry: notes.registry)
        _ = try await scenario.run(to: "2.7", interruptingAt: "2.7/archiveNotes")

        let failure = try #require(await #expect(throws: RunFailure.self) {
            try await Runner(store: scenario.store).migrate(to: "2.7") { try scenario.manifest() }
        })
        #expect(failure.outcome == .blocked)
        #expect(failure.step == "2.7/archiveNotes")
        #expect(failure.underlying == nil)
        let finished = try #require(try await scenario.store.readJournal().last)
        #expect(finished.event == .runFinished && finished.outcome == .blocked)
        #expect(failure.description == finished.error)
        #expect(notes.ran.withLock { $0 } == ["2.1/removeEmptyNotes"])
    }

    /// Runs the manifest refuses before any step throw too: a required stop (no step to name) and
    /// a late step under `late: fail` (named), each worded as its journal record.
    @Test func aRunRefusedBeforeAnyStepThrowsWithTheJournalsWords() async throws {
        var registry = StepRegistry()
        registry.register("note") { _ in }
        let fixture = try RunnerFixture()
        let runner = Runner(store: fixture.store)
        let first = try fixture.manifest("baseline: \"1.0\"\nmigrations:\n  \"2.0\": [note]\n", registry: registry)
        try await runner.migrate(to: "2.0") { first }

        let stop = try fixture.manifest(
            "baseline: \"1.0\"\nstops: [\"3.0\"]\nmigrations:\n  \"2.0\": [note]\n  \"4.0\": [{name: note, id: later}]\n",
            registry: registry)
        let refused = try #require(await #expect(throws: RunFailure.self) { try await runner.migrate(to: "4.0") { stop } })
        #expect(refused.outcome == .stopRequired)
        #expect(refused.step == nil)
        #expect(refused.description == (try await fixture.journal().last?.error))

        let late = try fixture.manifest(
            "baseline: \"1.0\"\nlate: fail\nmigrations:\n  \"1.5\": [{name: note, id: hotfix}]\n  \"2.0\": [note]\n",
            registry: registry)
        let lateRefused = try #require(await #expect(throws: RunFailure.self) { try await runner.migrate(to: "2.0") { late } })
        #expect(lateRefused.outcome == .lateRefused)
        #expect(lateRefused.step == "1.5/hotfix")
        #expect(lateRefused.description == "late steps under 'late: fail': 1.5/hotfix")
        #expect(lateRefused.description == (try await fixture.journal().last?.error))
    }

    /// Below the compatibility floor a contract step raised: refused, and the error names that step;
    /// a compatible older release returns (it starts, nothing runs).
    @Test func aRefusedDowngradeThrowsNamingTheContractStepThatRaisedTheFloor() async throws {
        let yaml = """
            migrations:
              "2.0": [{name: dropColumn, phase: contract}]
              "3.0": [{name: dropTable, phase: contract}]
            """
        var registry = StepRegistry()
        registry.register("dropColumn") { _ in }
        registry.register("dropTable") { _ in }
        let scenario = try await UpgradeScenario(manifest: yaml, registry: registry)
        var contract = RunOptions()
        contract.phase = .contract
        _ = try await scenario.run(to: "2.0", options: contract)
        _ = try await scenario.run(to: "3.0")  // pre-start: 3.0's contract step waits, the floor stays at 2.0
        let runner = Runner(store: scenario.store)

        #expect(try await runner.migrate(to: "2.0") { try scenario.manifest() }.outcome == .downgradeCompatible)
        let failure = try #require(await #expect(throws: RunFailure.self) {
            try await runner.migrate(to: "1.0") { try scenario.manifest() }
        })
        #expect(failure.outcome == .downgradeRefused)
        #expect(failure.step == "2.0/dropColumn")
        #expect(failure.description == "1.0 is below the store's compatibility floor 2.0 (stored version 3.0); the contract step 2.0/dropColumn made older releases incompatible")
        #expect(failure.description == (try await scenario.store.readJournal().last?.error))
    }
}
