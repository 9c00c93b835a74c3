import Milepost
import MilepostTestSupport
import Testing

/// The planner's rules (issue 41), table-driven over `Planner.plan`: each case plans a manifest
/// from a stored state and names one step's status and reason. Every rule (`PlannerRule`, in its
/// order: repeatable, scopeMoved, completed, reverted, conditionPassed, reached, lateExcluded,
/// lateSkipped, aboveTarget, inProgress, excluded, waiting, failed, owed, late, else in range)
/// answers in at least one case, and a case named "A before B" holds only with A asked before B.
/// Then the rules over the whole plan: `after: background`, the approval gate, the required stop.
@Suite struct PlannerTests {
    /// What a store records: completed steps, marks, an unfinished revert. Its version is the
    /// plan's `from` (the host store's: `Case.hostFrom`).
    struct Stored: Sendable {
        /// Completed with a fingerprint no step has.
        var completed: [String] = []
        /// Completed with the step's fingerprint as it is now.
        var current: [String] = []
        var interrupted: String? = nil
        var failed: String? = nil
        var reverting: Version? = nil

        static let epoch = Timestamp(millisecondsSince1970: 0)

        func state(at version: Version, of manifest: Manifest) throws -> StoredState {
            let record = { (id: String, fingerprint: String) in CompletedStep(id: id, at: Self.epoch, run: "r0", fingerprint: fingerprint) }
            return StoredState(
                app: nil, version: version,
                completed: completed.map { record($0, "0000000000000000") }
                    + (try current.map { record($0, try #require(manifest.step(id: $0)).fingerprint) }),
                inProgress: interrupted.map { InProgressStep(id: $0, run: "r1", since: Self.epoch, attempt: 1, host: "h", pid: 7) },
                failed: failed.map { FailedStep(id: $0, run: "r1", at: Self.epoch, error: "boom") }, updatedAt: Self.epoch,
                reverting: reverting.map { UnfinishedRevert(to: $0, run: "r2", since: Self.epoch) })
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var manifest = PlannerTests.steps
        /// The step whose entry the case checks.
        var step: String
        /// The fleet store's records; nil: no state (a fresh install, from the manifest's baseline).
        var state: Stored? = Stored()
        var from: Version = "1.5"
        var to: Version = "2.0"
        var lateFloor: Version? = nil
        var labels: String? = nil
        var phase: StepPhase = .preStart
        var recordsFreshInstall = false
        /// The host store's version and records; nil: a new host.
        var hostFrom: Version? = nil
        var host = Stored()
        /// The interrupted mark's run holds the lock.
        var running = false
        /// Steps with an approval of them as they are now.
        var approved: [String] = []
        var status: Plan.Status
        var reason: String

        var testDescription: String { name }
    }

    /// Steps of each kind at 1.0 (below the usual `from`, 1.5), 2.0 (in range) and 3.0 (above the target).
    static let steps = """
        baseline: "0.5"
        late: warn
        migrations:
          "1.0":
            - {name: note, id: plain}
            - {name: note, id: renamed, replaces: old}
            - {name: note, id: eu, labels: eu}
            - {name: note, id: eu-warn, labels: eu, late: warn}
            - {name: note, id: eu-run, labels: eu, late: run}
            - {name: note, id: upgrade-only, when: upgrade}
            - {name: note, id: contract, phase: contract}
            - {name: note, id: backfill, phase: background}
            - {name: note, id: run-late, late: run}
            - {name: note, id: fail-late, late: fail}
          "2.0":
            - {name: note, id: plain}
            - {name: note, id: eu, labels: eu}
            - {name: note, id: fresh, when: fresh-install}
            - {name: note, id: upgrade-only, when: upgrade}
            - {name: note, id: contract, phase: contract}
            - {name: note, id: eu-contract, phase: contract, labels: eu}
            - {name: note, id: backfill, phase: background}
          "3.0": [{name: note, id: plain}]
        """

    static let repeatable = """
        baseline: "0.5"
        migrations:
          "1.0":
            - {name: note, id: views, repeat: on-change}
            - {name: note, id: eu-views, repeat: on-change, labels: eu}
            - {name: note, id: plain}
          "3.0": [{name: note, id: later-views, repeat: on-change}]
        """

    static let scopes = """
        baseline: "0.5"
        migrations:
          "1.0":
            - {name: note, id: fleet-step}
            - {name: note, id: host-step, scope: host}
        """

    static let gates = """
        baseline: "0.5"
        migrations:
          "2.0":
            - {name: note, id: drop, phase: contract, after: background, requires: approval}
            - {name: note, id: backfill, phase: background}
            - {name: note, id: gated, requires: approval}
            - {name: note, id: gated-contract, phase: contract, requires: approval}
          "3.0": [{name: note, id: later, phase: background}]
        """

    static let inRange = "1.5 < 2.0 <= 2.0"
    static let reached = "at or below 1.5, which was already reached; it will never run"
    static let aboveTarget = "above the target 2.0"
    static let lateWarn = "added at or below 1.5 after this store reached it: it will never run (late: warn)"
    static let lateRun = "added at or below 1.5 after this store reached it: runs before the newer steps (late: run)"
    static let labelsUS = "labels eu do not match --labels 'us'"
    static let interrupted = "interrupted: was running in pid 7 on h since 1970-01-01T00:00:00.000Z"
    static let failed = "failed last time: boom"
    static let waitingContract = "phase: contract: waits for the rollout; runs in 'run --phase contract' or in the next release's run"
    static let revertedTo05 = "undone by the unfinished revert to 0.5: runs again on a run above 0.5 once the revert is finished"
    static let awaitingApproval = "requires approval: a run stops before it until 'milepost approve' records one of it as it is now"

    static let cases: [Case] = [
        // repeatable
        Case(
            name: "repeatable before reached: never recorded, below from, it runs", manifest: repeatable, step: "1.0/views",
            status: .pending, reason: "repeatable, never ran here: runs after the one-time steps (repeat: on-change)"),
        Case(
            name: "repeatable before completed: recorded with another fingerprint, it runs again", manifest: repeatable,
            step: "1.0/views", state: Stored(completed: ["1.0/views"]),
            status: .pending, reason: "entry changed since it last ran: runs again after the one-time steps (repeat: on-change)"),
        Case(
            name: "repeatable: recorded as it is now", manifest: repeatable, step: "1.0/views", state: Stored(current: ["1.0/views"]),
            status: .completed, reason: "completed before"),
        Case(
            name: "repeatable: due and excluded", manifest: repeatable, step: "1.0/eu-views", labels: "us",
            status: .outOfScope, reason: labelsUS),
        Case(name: "repeatable: above the target", manifest: repeatable, step: "3.0/later-views", status: .aboveTarget, reason: aboveTarget),
        // scopeMoved, and which store's records decide a step
        Case(
            name: "scopeMoved: a fleet step the host store records", manifest: scopes, step: "1.0/fleet-step",
            hostFrom: "1.5", host: Stored(completed: ["1.0/fleet-step"]),
            status: .completed, reason: "ran as a host step (recorded in the host store), and its scope changed since: a run refuses while it does"),
        Case(
            name: "scopeMoved: a host step the fleet store records", manifest: scopes, step: "1.0/host-step",
            state: Stored(completed: ["1.0/host-step"]),
            status: .completed, reason: "ran as a fleet step (recorded in the fleet store), and its scope changed since: a run refuses while it does"),
        Case(
            name: "scopeMoved before completed: a host step both stores record", manifest: scopes, step: "1.0/host-step",
            state: Stored(completed: ["1.0/host-step"]), hostFrom: "1.5", host: Stored(completed: ["1.0/host-step"]),
            status: .completed, reason: "ran as a fleet step (recorded in the fleet store), and its scope changed since: a run refuses while it does"),
        Case(
            name: "a host step the host store records is completed", manifest: scopes, step: "1.0/host-step",
            hostFrom: "1.5", host: Stored(completed: ["1.0/host-step"]), status: .completed, reason: "completed before"),
        Case(
            name: "a host step on a new host is planned from the baseline", manifest: scopes, step: "1.0/host-step",
            status: .pending, reason: "0.5 < 1.0 <= 2.0"),
        // completed
        Case(name: "completed before reached", step: "1.0/plain", state: Stored(completed: ["1.0/plain"]), status: .completed, reason: "completed before"),
        Case(name: "completed: the step it replaces", step: "1.0/renamed", state: Stored(completed: ["1.0/old"]), status: .completed, reason: "completed before"),
        Case(
            name: "completed before reverted", step: "1.0/plain", state: Stored(completed: ["1.0/plain"], reverting: "0.5"),
            status: .completed, reason: "completed before"),
        Case(
            name: "completed before inProgress", step: "2.0/plain", state: Stored(completed: ["2.0/plain"], interrupted: "2.0/plain"),
            status: .completed, reason: "completed before"),
        // reverted
        Case(name: "reverted before reached", step: "1.0/plain", state: Stored(reverting: "0.5"), status: .reverted, reason: revertedTo05),
        Case(name: "reverted before conditionPassed", step: "1.0/upgrade-only", state: Stored(reverting: "0.5"), status: .reverted, reason: revertedTo05),
        Case(name: "reverted: not at or below the revert's target", step: "1.0/plain", state: Stored(reverting: "1.0"), status: .skipped, reason: reached),
        // conditionPassed
        Case(
            name: "conditionPassed before reached", step: "1.0/upgrade-only",
            status: .outOfScope, reason: "when: upgrade was decided by the run that passed it (at or below 1.5); it does not run later"),
        Case(
            name: "conditionPassed before late: a when: step below from is never late", step: "1.0/upgrade-only", lateFloor: "0.5",
            status: .outOfScope, reason: "when: upgrade was decided by the run that passed it (at or below 1.5); it does not run later"),
        // reached
        Case(name: "reached: no late floor", step: "1.0/plain", status: .skipped, reason: reached),
        Case(name: "reached: at the late floor", step: "1.0/plain", lateFloor: "1.0", status: .skipped, reason: reached),
        Case(name: "reached before lateExcluded", step: "1.0/eu-warn", labels: "us", status: .skipped, reason: reached),
        Case(name: "reached before owed: a contract step not late", step: "1.0/contract", status: .skipped, reason: reached),
        Case(
            name: "reached before aboveTarget: a downgrade", step: "2.0/plain", from: "2.0", to: "1.0",
            status: .skipped, reason: "at or below 2.0, which was already reached; it will never run"),
        // lateExcluded
        Case(name: "lateExcluded before lateSkipped", step: "1.0/eu-warn", lateFloor: "0.5", labels: "us", status: .outOfScope, reason: labelsUS),
        // lateSkipped
        Case(name: "lateSkipped: the manifest's late: warn", step: "1.0/plain", lateFloor: "0.5", status: .skipped, reason: lateWarn),
        Case(
            name: "lateSkipped: late: fail", step: "1.0/fail-late", lateFloor: "0.5",
            status: .skipped, reason: "added at or below 1.5 after this store reached it: a run refuses to start (late: fail)"),
        Case(name: "lateSkipped before late: a labelled step under late: warn", step: "1.0/eu-warn", lateFloor: "0.5", status: .skipped, reason: lateWarn),
        Case(
            name: "lateSkipped before inProgress", step: "1.0/plain", state: Stored(interrupted: "1.0/plain"), lateFloor: "0.5",
            status: .skipped, reason: lateWarn),
        // aboveTarget
        Case(name: "aboveTarget", step: "3.0/plain", status: .aboveTarget, reason: aboveTarget),
        Case(name: "aboveTarget before inProgress", step: "3.0/plain", state: Stored(interrupted: "3.0/plain"), status: .aboveTarget, reason: aboveTarget),
        Case(
            name: "aboveTarget only above from: a late contract step in a downgrade", step: "2.0/contract", from: "2.0", to: "1.0",
            lateFloor: "0.5", status: .waiting, reason: waitingContract),
        // inProgress
        Case(name: "inProgress: interrupted", step: "2.0/plain", state: Stored(interrupted: "2.0/plain"), status: .interrupted, reason: interrupted),
        Case(
            name: "inProgress: running while its run holds the lock", step: "2.0/plain", state: Stored(interrupted: "2.0/plain"), running: true,
            status: .running, reason: "running now in pid 7 on h since 1970-01-01T00:00:00.000Z (run r1)"),
        Case(
            name: "inProgress before excluded", step: "2.0/eu", state: Stored(interrupted: "2.0/eu"), labels: "us",
            status: .interrupted, reason: interrupted),
        Case(name: "inProgress before waiting", step: "2.0/backfill", state: Stored(interrupted: "2.0/backfill"), status: .interrupted, reason: interrupted),
        Case(
            name: "inProgress before late", step: "1.0/run-late", state: Stored(interrupted: "1.0/run-late"), lateFloor: "0.5",
            status: .interrupted, reason: interrupted),
        // excluded
        Case(name: "excluded: labels", step: "2.0/eu", labels: "us", status: .outOfScope, reason: labelsUS),
        Case(name: "excluded: when: fresh-install in an upgrade", step: "2.0/fresh", status: .outOfScope, reason: "when: fresh-install, and this run is an upgrade"),
        Case(
            name: "excluded: when: upgrade in a fresh install", step: "2.0/upgrade-only", state: nil, from: "0.5",
            status: .outOfScope, reason: "when: upgrade, and this run is a fresh install"),
        Case(
            name: "excluded: a fresh install that records its target", step: "2.0/plain", state: nil, from: "0.5", recordsFreshInstall: true,
            status: .outOfScope, reason: "a fresh install that records its target: only the when: fresh-install steps run (fresh install: record)"),
        Case(name: "excluded before waiting", step: "2.0/eu-contract", labels: "us", status: .outOfScope, reason: labelsUS),
        Case(name: "excluded before failed", step: "2.0/eu", state: Stored(failed: "2.0/eu"), labels: "us", status: .outOfScope, reason: labelsUS),
        // waiting
        Case(name: "waiting: a contract step in a pre-start run", step: "2.0/contract", status: .waiting, reason: waitingContract),
        Case(
            name: "waiting: a background step in a contract run", step: "2.0/backfill", phase: .contract,
            status: .waiting, reason: "phase: background: runs in the background runner ('run --phase background')"),
        Case(name: "waiting before failed", step: "2.0/contract", state: Stored(failed: "2.0/contract"), status: .waiting, reason: waitingContract),
        Case(
            name: "waiting before owed: a run that stays at from", step: "1.0/contract", to: "1.5", lateFloor: "0.5",
            status: .waiting, reason: waitingContract),
        Case(name: "waiting: none for a contract step in a contract run", step: "2.0/contract", phase: .contract, status: .pending, reason: inRange),
        Case(
            name: "waiting: none for a contract step in a fresh install", step: "2.0/contract", state: nil, from: "0.5",
            status: .pending, reason: "0.5 < 2.0 <= 2.0"),
        // failed
        Case(name: "failed", step: "2.0/plain", state: Stored(failed: "2.0/plain"), status: .pending, reason: failed),
        Case(name: "failed before owed", step: "1.0/contract", state: Stored(failed: "1.0/contract"), lateFloor: "0.5", status: .pending, reason: failed),
        Case(name: "failed before late", step: "1.0/run-late", state: Stored(failed: "1.0/run-late"), lateFloor: "0.5", status: .pending, reason: failed),
        // owed
        Case(
            name: "owed before late: a contract step", step: "1.0/contract", lateFloor: "0.5",
            status: .pending, reason: "phase: contract, passed by the run to 1.5: runs before the newer steps"),
        Case(
            name: "owed: a background step in a background run", step: "1.0/backfill", lateFloor: "0.5", phase: .background,
            status: .pending, reason: "phase: background, passed by the run to 1.5"),
        // late
        Case(name: "late: late: run", step: "1.0/run-late", lateFloor: "0.5", status: .pending, reason: lateRun),
        Case(
            name: "late: a labelled step is left out", step: "1.0/eu", lateFloor: "0.5", status: .pending,
            reason: "labelled, and never ran here though this store reached 1.5 (left out by --labels, or added later): runs before the newer steps"),
        Case(name: "late: a labelled step with its own late: run", step: "1.0/eu-run", lateFloor: "0.5", status: .pending, reason: lateRun),
        // in range
        Case(name: "in range", step: "2.0/plain", status: .pending, reason: inRange),
        Case(name: "in range: labels that match", step: "2.0/eu", labels: "eu", status: .pending, reason: inRange),
        // over the plan: after: background, then the approval gate
        Case(
            name: "after: background before the gate: waits for an unfinished background step", manifest: gates, step: "2.0/drop",
            phase: .contract, status: .waiting,
            reason: "after: background: waits for the background step 2.0/backfill to complete; a contract run ('run --phase contract') waits for them, then runs it"),
        Case(
            name: "after: background: a background step above it does not count", manifest: gates, step: "2.0/drop",
            state: Stored(completed: ["2.0/backfill"]), to: "3.0", phase: .contract, approved: ["2.0/drop"],
            status: .pending, reason: "1.5 < 2.0 <= 3.0"),
        Case(
            name: "the gate: the background steps done, it awaits approval", manifest: gates, step: "2.0/drop",
            state: Stored(completed: ["2.0/backfill"]), phase: .contract, status: .awaitingApproval, reason: awaitingApproval),
        Case(name: "the gate: a due step without approval", manifest: gates, step: "2.0/gated", status: .awaitingApproval, reason: awaitingApproval),
        Case(name: "the gate: approved", manifest: gates, step: "2.0/gated", approved: ["2.0/gated"], status: .pending, reason: inRange),
        Case(name: "the gate: only of a due step", manifest: gates, step: "2.0/gated-contract", status: .waiting, reason: waitingContract),
    ]

    @Test(arguments: cases)
    func rule(_ example: Case) throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(example.manifest)
        let epoch = Stored.epoch
        let approvals = try example.approved.map { id in
            JournalRecord(time: epoch, run: "r", event: .approved, step: id, fingerprint: try #require(manifest.step(id: id)).fingerprint, by: "alice")
        }
        let plan = Planner.plan(
            manifest, state: try example.state?.state(at: example.from, of: manifest), from: example.from,
            origin: example.state == nil ? .baseline : .stored, to: example.to,
            lockHolder: example.running ? LockHolder(pid: 7, host: "h", since: epoch, run: "r1") : nil, lateFloor: example.lateFloor,
            scope: PlanScope(
                labels: try example.labels.map { try LabelExpression(parsing: $0) }, freshInstall: example.state == nil, phase: example.phase,
                recordsFreshInstall: example.recordsFreshInstall),
            host: try example.hostFrom.map { Planner.StoreRecords(state: try example.host.state(at: $0, of: manifest), from: $0) },
            approvals: StepApprovals(journal: approvals))
        let entry = try #require(plan.entries.first { $0.step.id == example.step })
        #expect(entry.status == example.status)
        #expect(entry.reason == example.reason)
    }

    struct StopCase: Sendable, CustomTestStringConvertible {
        var name: String
        /// nil: no state (a fresh install from the baseline).
        var from: Version?
        var to: Version = "3.0"
        var completed: [String] = []
        var phase: StepPhase = .preStart
        var stop: RequiredStop?
        var testDescription: String { name }
    }

    static let stops = """
        baseline: "0.5"
        upgrade_from: "1.0"
        stops: ["2.0"]
        migrations:
          "2.0": [{name: note, id: backfill, phase: background}]
          "3.0": [{name: note, id: plain}]
        """

    static let stopCases: [StopCase] = [
        StopCase(name: "below upgrade_from", from: "0.5", stop: RequiredStop(version: "1.0", kind: .upgradeFrom)),
        StopCase(name: "a stop between from and the target", from: "1.5", stop: RequiredStop(version: "2.0", kind: .stop)),
        StopCase(name: "to the stop", from: "1.5", to: "2.0", stop: nil),
        StopCase(
            name: "past a reached stop with its background step unfinished", from: "2.0",
            stop: RequiredStop(version: "2.0", kind: .background, steps: ["2.0/backfill"])),
        StopCase(name: "past a reached stop with its background step done", from: "2.0", completed: ["2.0/backfill"], stop: nil),
        StopCase(name: "a background run past a reached stop", from: "2.0", phase: .background, stop: nil),
        StopCase(name: "a run that stays at the stop", from: "2.0", to: "2.0", stop: nil),
        StopCase(name: "a fresh install", from: nil, stop: nil),
    ]

    /// The plan's required stop: `upgrade_from:`, a stop on the way, a reached stop's unfinished
    /// background steps; none for a fresh install. A stored state's late floor is the baseline,
    /// so that the background step passed at 2.0 is owed, not assumed done.
    @Test(arguments: stopCases)
    func requiredStop(_ example: StopCase) throws {
        let manifest = try RunnerFixture().manifest(Self.stops)
        let state = try example.from.map { try Stored(completed: example.completed).state(at: $0, of: manifest) }
        let plan = Planner.plan(
            manifest, state: state, from: example.from ?? manifest.baseline, origin: state == nil ? .baseline : .stored, to: example.to,
            lateFloor: state.map { _ in manifest.baseline }, scope: PlanScope(freshInstall: state == nil, phase: example.phase))
        #expect(plan.requiredStop == example.stop)
    }
}
