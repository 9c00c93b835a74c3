/// What a run from one version to another would do, step by step, with reasons.
public struct Plan: Sendable {
    /// Where `from` came from.
    public enum Origin: String, Sendable, Codable {
        /// The store's version.
        case stored
        /// The manifest's `baseline:` (nothing stored yet).
        case baseline
        /// Given by the caller (`plan --from`).
        case given
    }

    /// A step's fate in this plan.
    public enum Status: String, Sendable, Codable {
        /// Will run.
        case pending
        /// Ran before; will not run again.
        case completed
        /// Its threshold is above the target.
        case aboveTarget = "above-target"
        /// Its threshold is at or below the stored version and it never ran: it never will.
        case skipped
        /// Undone by a revert that is unfinished (`StoredState.reverting`): once the revert stores
        /// its target, a run above it runs the step again.
        case reverted
        /// Was running when a process died; a run needs `resolve` first unless the step is idempotent.
        case interrupted
        /// Running right now: its run holds the store's lock. A run waits for that lock first.
        case running
        /// Left out by the plan's scope (`PlanScope`): its labels do not match `--labels`, or its
        /// `when:` is not this kind of run. Neither run nor recorded.
        case outOfScope = "out-of-scope"
        /// Due, but of a phase this run does not run (`StepPhase`): a contract step waiting for the
        /// rollout, a background step waiting for the background runner.
        case waiting
        /// Due, and `requires: approval` without one (`StepApprovals`): a run stops before it until
        /// `milepost approve` records one.
        case awaitingApproval = "awaiting-approval"

        /// Work this run has ahead: the step runs in it (pending, interrupted, running), or stops
        /// it until approved.
        public var isAhead: Bool {
            switch self {
            case .pending, .interrupted, .running, .awaitingApproval: true
            case .completed, .aboveTarget, .skipped, .reverted, .outOfScope, .waiting: false
            }
        }
    }

    public struct Entry: Sendable {
        public let step: ManifestStep
        public let status: Status
        /// Why, in words (`failed last time: …`, `added at or below 2.1, which this store had already reached`).
        public var reason: String { why.text(threshold: step.threshold) }
        /// Why, as data: the words are built only when shown (a plan may have 100k entries).
        let why: Reason

        /// The step's late policy when it is late (added at or below a version the store had
        /// already reached): `.warn` and `.fail` leave it `skipped`, `.run` makes it `pending`.
        public var late: LatePolicy? {
            if case .late(_, let policy) = why { policy } else { nil }
        }
    }

    /// Why an entry has its status.
    enum Reason: Sendable {
        case completed
        case reached(from: Version)
        case aboveTarget(Version)
        case interrupted(InProgressStep)
        case running(InProgressStep)
        case failed(error: String)
        case inRange(from: Version, to: Version)
        case late(from: Version, policy: LatePolicy)
        case labels([String], LabelExpression)
        case leftOut(from: Version)
        case condition(StepCondition)
        case conditionPassed(StepCondition, from: Version)
        /// Undone by the unfinished revert to this version.
        case reverted(to: Version)
        /// A fresh install that records its target (`FreshInstallPolicy.record`): only the `when:
        /// fresh-install` steps run.
        case freshInstallRecorded
        /// Due, and left for a run of its phase (`PlanScope.admits(_:from:to:)`).
        case waiting(StepPhase)
        /// A contract step ordered after the background steps at or below its threshold
        /// (`after: background`), due, and waiting for these, unfinished.
        case afterBackground([String])
        /// A contract or background step at or below the stored version that never ran: a run
        /// passed it for its phase, and this run runs it.
        case owed(StepPhase, from: Version)
        /// A repeatable step with no record on the store.
        case repeatableFirstRun
        /// A repeatable step whose fingerprint differs from the one recorded when it last completed.
        case entryChanged
        /// Completed in the store of the other scope (`StepScope`): it ran as a `ranAs` step and
        /// its `scope:` changed since. A run refuses (`Plan.scopeMoved`).
        case scopeMoved(ranAs: StepScope)
        /// Due, and `requires: approval` without an approval that lets it start in this run.
        case awaitingApproval

        func text(threshold: Version) -> String {
            switch self {
            case .completed: "completed before"
            case .reached(let from): "at or below \(from), which was already reached; it will never run"
            case .aboveTarget(let target): "above the target \(target)"
            case .interrupted(let running):
                "interrupted: was running in pid \(running.pid) on \(running.host) since \(running.since)"
                    + (running.cursor.map { "; resumes at its cursor \($0)" } ?? "")
            case .running(let running):
                "running now in pid \(running.pid) on \(running.host) since \(running.since) (run \(running.run))"
            case .failed(let error): "failed last time: \(error)"
            case .inRange(let from, let target): "\(from) < \(threshold) <= \(target)"
            case .late(let from, .warn): "added at or below \(from) after this store reached it: it will never run (late: warn)"
            case .late(let from, .run): "added at or below \(from) after this store reached it: runs before the newer steps (late: run)"
            case .late(let from, .fail): "added at or below \(from) after this store reached it: a run refuses to start (late: fail)"
            case .labels(let labels, let expression):
                "labels \(labels.joined(separator: ", ")) do not match --labels '\(expression)'"
            case .leftOut(let from):
                "labelled, and never ran here though this store reached \(from) (left out by --labels, or added later): runs before the newer steps"
            case .condition(.upgrade): "when: upgrade, and this run is a fresh install"
            case .condition(.freshInstall): "when: fresh-install, and this run is an upgrade"
            case .conditionPassed(let when, let from):
                "when: \(when.rawValue) was decided by the run that passed it (at or below \(from)); it does not run later"
            case .reverted(let to):
                "undone by the unfinished revert to \(to): runs again on a run above \(to) once the revert is finished"
            case .freshInstallRecorded:
                "a fresh install that records its target: only the when: fresh-install steps run (fresh install: record)"
            case .waiting(.contract):
                "phase: contract: waits for the rollout; runs in 'run --phase contract' or in the next release's run"
            case .waiting(.background): "phase: background: runs in the background runner ('run --phase background')"
            case .waiting(.preStart): "phase: pre-start: runs in the pre-start run"
            case .afterBackground(let steps):
                "after: background: waits for the background step\(steps.count == 1 ? "" : "s") \(steps.joined(separator: ", ")) "
                    + "to complete; a contract run ('run --phase contract') waits for them, then runs it"
            case .owed(.contract, let from): "phase: contract, passed by the run to \(from): runs before the newer steps"
            case .owed(let phase, let from): "phase: \(phase.rawValue), passed by the run to \(from)"
            case .repeatableFirstRun: "repeatable, never ran here: runs after the one-time steps (repeat: on-change)"
            case .entryChanged: "entry changed since it last ran: runs again after the one-time steps (repeat: on-change)"
            case .scopeMoved(let ranAs):
                "ran as a \(ranAs.rawValue) step (recorded in the \(ranAs.rawValue) store), and its scope changed since: "
                    + "a run refuses while it does"
            case .awaitingApproval: "requires approval: a run stops before it until 'milepost approve' records one of it as it is now"
            }
        }
    }

    public let from: Version
    public let origin: Origin
    public let to: Version
    /// Every manifest step in run order (repeatable steps after the one-time steps), with its status.
    public let entries: [Entry]
    /// The version the store must reach with an earlier release first (`upgrade_from:`, `stops:`):
    /// a run refuses before any step.
    public let requiredStop: RequiredStop?
    /// The `--labels` expression and the kind of run that chose the steps in scope.
    public let scope: PlanScope
    /// For a manifest with `scope: host` steps: the version the host store starts from (its
    /// stored version, or the manifest's baseline on a new host); nil without host steps.
    public var hostFrom: Version? = nil
    /// The approvals recorded for the `requires: approval` steps, as they apply to this run.
    public var approvals = StepApprovals()

    /// The late steps (added at or below the stored version after the store reached it), whatever their policy.
    public var late: [Entry] { entries.filter { $0.late != nil } }
    /// The late steps under `late: fail`: a run refuses while there is any.
    public var lateRefused: [Entry] { entries.filter { $0.late == .fail } }
    /// Completed steps whose `scope:` changed after they ran (recorded in the other scope's store):
    /// a run refuses while there is any, as a completed step never runs again in another store.
    public var scopeMoved: [Entry] {
        entries.filter { if case .scopeMoved = $0.why { true } else { false } }
    }

    /// The steps that will run, in order (a running step too: it is not complete yet). A step of a
    /// phase this run does not run is not among them, even when it is in progress (a background
    /// step the background runner runs or was stopped in).
    /// A step awaiting approval (`Status.awaitingApproval`) is among them: it is work ahead.
    public var pending: [ManifestStep] {
        // Without copying the entries kept (each a few retains): the runner asks for 100k-step plans.
        entries.compactMap { entry in entry.status.isAhead && admits(entry.step) ? entry.step : nil }
    }

    /// The first step of `pending` that awaits approval: a run stops before it; nil when none does.
    public var approvalGate: Entry? {
        entries.first { $0.status == .awaitingApproval && admits($0.step) }
    }

    /// The steps a run runs now: `pending` up to the step awaiting approval, when one does.
    public var runnable: [ManifestStep] {
        guard let gate = approvalGate?.step else { return pending }
        return Array(pending.prefix { $0 !== gate })
    }

    /// Steps due for a run of another phase (`Status.waiting`), in run order; with the contract
    /// steps that wait for background steps (`after: background`).
    public var waiting: [Entry] { entries.filter { $0.status == .waiting } }

    /// The contract steps of `waiting` that wait for unfinished background steps (`after:
    /// background`), each with those steps.
    public var waitingForBackground: [(step: ManifestStep, background: [String])] {
        entries.compactMap { entry in
            if case .afterBackground(let background) = entry.why { (entry.step, background) } else { nil }
        }
    }

    /// Whether this run runs `step` when it is due (its phase; `PlanScope.admits(_:from:to:)`).
    public func admits(_ step: ManifestStep) -> Bool {
        scope.admits(step, from: step.scope == .host ? hostFrom ?? from : from, to: to)
    }

    /// The step another runner is running right now, if any.
    public var running: Entry? { entries.first { $0.status == .running } }

    /// The target is below the starting version.
    public var isDowngrade: Bool { to < from }
}
