import Milepost
import MilepostSystem

// The JSON documents of `--format json`, one per command. Keys are snake_case; docs/json.md
// documents each shape. Bump `JSONOutput.format` on any incompatible change.

struct ValidateDocument: Encodable {
    var format = JSONOutput.format
    var command = "validate"
    var manifest: String
    /// `--store`: the store the manifest was checked against (without a password).
    var store: String?
    /// `--locked`: the lock file the manifest was checked against.
    var lockFile: String?
    /// No errors (and, with `--strict`, no warnings).
    var valid: Bool
    var strict: Bool
    var steps: Int
    /// The declared variables the manifest substitutes when it is loaded, in order of first use.
    var substitutedVariables: [String]
    /// Each other `${…}`: kept as written for the step's shell.
    var keptForShell: [String]
    var diagnostics: [DiagnosticDocument]
}

struct DiagnosticDocument: Encodable {
    struct Note: Encodable {
        var message: String
        var line: Int?
        var column: Int?
    }

    var severity: String
    var message: String
    var file: String
    var line: Int?
    var column: Int?
    var notes: [Note]

    init(_ diagnostic: Diagnostic) {
        severity = diagnostic.severity.rawValue
        message = diagnostic.message
        file = diagnostic.file
        line = diagnostic.location?.line
        column = diagnostic.location?.column
        notes = diagnostic.notes.map { Note(message: $0.message, line: $0.location?.line, column: $0.location?.column) }
    }
}

struct PlanStepDocument: Encodable {
    var id: String
    var name: String
    var threshold: String
    var status: String
    var reason: String
    var idempotent: Bool
    var resumable: Bool
    var description: String?
    /// The late policy, when the step is late.
    var late: String?
    /// The step's `labels:`, when it has some.
    var labels: [String]?
    /// The step's `when:`, when it has one.
    var when: String?
    /// `in` or `out`, for a step that labels or `when:` choose.
    var scope: String?
    /// `on-change` for a repeatable step.
    var `repeat`: String?
    /// The step's `phase:`: `pre-start`, `contract` or `background`.
    var phase: String
    /// The step's `scope:`: `fleet` (recorded in the store) or `host` (in the host store).
    var stepScope: String
    /// For a step ahead or waiting: its completed attempts as it is now, and those of an earlier entry.
    var duration: DurationDocument?
    var editedDuration: DurationDocument?
    /// The step's `expected:`.
    var expectedMs: Int?
    /// `requires: approval`.
    var requiresApproval: Bool?
    /// The approval that lets the step start, when it requires one and has one.
    var approval: ApprovalDocument?

    /// `durations`: what history says, for the steps ahead or waiting; nil: not shown.
    init(_ entry: Plan.Entry, in plan: Plan, durations: StepDurations? = nil) {
        if let durations, entry.status.isAhead || entry.status == .waiting {
            let estimate = durations.estimate(for: entry.step)
            duration = DurationDocument(estimate.history)
            editedDuration = DurationDocument(estimate.editedHistory)
        }
        expectedMs = entry.step.expected.map(DurationText.milliseconds)
        if entry.step.requiresApproval {
            requiresApproval = true
            approval = plan.approvals.approval(of: entry.step).map(ApprovalDocument.init)
        }
        phase = entry.step.phase.rawValue
        stepScope = entry.step.scope.rawValue
        late = entry.late?.rawValue
        labels = entry.step.labels.isEmpty ? nil : entry.step.labels
        when = entry.step.when?.rawValue
        scope = plan.isInScope(entry).map { $0 ? "in" : "out" }
        `repeat` = entry.step.repeats?.rawValue
        id = entry.step.id
        name = entry.step.name
        description = entry.step.description
        threshold = entry.step.threshold.text
        status = entry.status.rawValue
        reason = entry.reason
        idempotent = entry.step.idempotent
        resumable = entry.step.resumable
    }
}

struct PlanDocument: Encodable {
    var format = JSONOutput.format
    var command = "plan"
    var manifest: String
    var app: String?
    var from: String
    var fromOrigin: String
    var to: String
    var downgrade: Bool
    var pending: [String]
    /// The steps due for a run of another phase (`status` `waiting`).
    var waiting: [String]
    /// The run's phase (`--phase`).
    var phase: String
    var steps: [PlanStepDocument]
    var requiredStop: RequiredStopDocument?
    /// The `--labels` expression, when one was given.
    var labels: String?
    /// With `--from` (a store at `from`: an upgrade), what a host with no store would be instead.
    var withoutStore: WithoutStoreDocument?
    /// The first step awaiting approval: a run stops before it.
    var awaitingApproval: String?
    /// `--deadline`: the pending work at p95 against it.
    var deadline: DeadlineDocument?
    /// `--out`: the plan file written.
    var planFile: String?

    init(_ plan: Plan, manifest: Manifest, durations: StepDurations? = nil) {
        awaitingApproval = plan.approvalGate?.step.id
        if plan.origin == .given { withoutStore = WithoutStoreDocument(from: manifest.baseline.text) }
        waiting = plan.waiting.map(\.step.id)
        phase = plan.scope.phase.rawValue
        requiredStop = RequiredStopDocument(plan)
        self.manifest = manifest.source.path
        app = manifest.app
        from = plan.from.text
        fromOrigin = plan.origin.rawValue
        to = plan.to.text
        downgrade = plan.isDowngrade
        pending = plan.pending.map(\.id)
        steps = plan.entries.map { PlanStepDocument($0, in: plan, durations: durations) }
        labels = plan.scope.labels?.text
    }
}

/// `plan --from V` plans an upgrade (a store at V); a host with no store starts from the manifest's
/// baseline as a fresh install: `when: fresh-install` steps run there, `when: upgrade` steps do not.
struct WithoutStoreDocument: Encodable {
    var run = "fresh-install"
    /// The manifest's `baseline:` (0 without one).
    var from: String
}

/// A plan's required stop: the version to reach first, which key asks for it, and the message.
struct RequiredStopDocument: Encodable {
    var version: String
    var kind: String
    var message: String
    /// For `background`: the unfinished background steps at or below the stop.
    var steps: [String]?

    init?(_ plan: Plan?) {
        guard let plan, let stop = plan.requiredStop else { return nil }
        version = stop.version.text
        kind = stop.kind.rawValue
        steps = stop.steps.isEmpty ? nil : stop.steps
        message = stop.message(from: plan.from, to: plan.to)
    }
}

/// A late step and its policy (`late: warn | run | fail`).
struct LateStepDocument: Encodable {
    var id: String
    var policy: String

    static func list(_ entries: [Plan.Entry]) -> [LateStepDocument]? {
        let late = entries.compactMap { entry in entry.late.map { LateStepDocument(id: entry.step.id, policy: $0.rawValue) } }
        return late.isEmpty ? nil : late
    }
}

struct WaitDocument: Encodable {
    var format = JSONOutput.format
    var command = "wait"
    var outcome: String
    var exitCode: Int32
    var to: String
    /// The stored version as last read; nil when nothing is stored.
    var version: String?
    var waitedMs: Int
    var interrupted: InProgressStep?
    var failed: FailedStep?
    /// For `downgrade-refused`: the store's compatibility floor, when it has one.
    var floor: CompatibilityFloor?

    init(_ report: WaitReport, exitCode: Int32) {
        floor = report.outcome == .downgradeRefused ? report.refusal?.floor : nil
        outcome = report.outcome.rawValue
        self.exitCode = exitCode
        to = report.target.text
        version = report.state?.version.text
        waitedMs = DurationText.milliseconds(report.waited)
        interrupted = report.outcome == .blocked ? report.interrupted : nil
        failed = report.outcome == .failed ? report.failed : nil
    }
}

struct RunDocument: Encodable {
    struct Step: Encodable {
        var id: String
        var status: String
        var attempts: Int
        var durationMs: Int
        var error: String?
        var stderr: String?

        init(_ result: RunReport.StepResult) {
            id = result.id
            status = result.status.rawValue
            attempts = result.attempts
            durationMs = result.durationMs
            error = result.error
            stderr = result.stderr
        }
    }

    var format = JSONOutput.format
    var command = "run"
    var outcome: String
    var exitCode: Int32
    var run: String?
    var app: String?
    var from: String
    var to: String
    var doneByAnotherRunner: Bool
    var steps: [Step]
    var pending: [String]?
    var interrupted: InProgressStep?
    var signal: Int32?
    var late: [LateStepDocument]?
    var requiredStop: RequiredStopDocument?
    /// For `revert-unfinished`: the revert to finish first.
    var reverting: UnfinishedRevert?
    /// The hooks that ran (`hooks:`), as `steps` are shown; absent when none ran.
    var hooks: [Step]?
    /// The steps due for a run of another phase (contract, background); absent when none are.
    var waiting: [String]?
    /// For a downgrade: the store's compatibility floor, when it has one.
    var floor: CompatibilityFloor?
    /// For `deadline-refused`: the step the run stopped before.
    var deadlineRefusal: DeadlineRefusalDocument?
    /// For `awaiting-approval`: the step the run stopped before.
    var awaitingApproval: String?
    /// For `plan-changed`: what changed since the plan was made.
    var planChanges: [PlanChangeDocument]?
    /// The approvals of the steps that ran and required one.
    var approvals: [ApprovalDocument]?

    init(_ report: RunReport, exitCode: Int32, signal: Int32?) {
        deadlineRefusal = DeadlineRefusalDocument(report.deadlineRefusal)
        awaitingApproval = report.outcome == .awaitingApproval ? report.plan?.approvalGate?.step.id : nil
        planChanges = report.planChanges.isEmpty ? nil : report.planChanges.map(PlanChangeDocument.init)
        let approved = report.approvals.map(ApprovalDocument.init)
        approvals = approved.isEmpty ? nil : approved
        let waiting = report.plan?.waiting.map(\.step.id) ?? []
        self.waiting = waiting.isEmpty ? nil : waiting
        floor = report.floor
        hooks = report.hooks.isEmpty ? nil : report.hooks.map(Step.init)
        late = LateStepDocument.list(report.plan?.entries ?? [])
        requiredStop = report.outcome == .stopRequired ? RequiredStopDocument(report.plan) : nil
        outcome = report.outcome.rawValue
        self.exitCode = exitCode
        run = report.run
        app = report.app
        from = report.from.text
        to = report.to.text
        doneByAnotherRunner = report.doneByAnotherRunner
        steps = report.steps.map(Step.init)
        pending = report.outcome == .dryRun ? report.plan?.pending.map(\.id) : nil
        interrupted = report.interrupted
        self.signal = signal
        reverting = report.reverting
    }
}

struct StatusDocument: Encodable {
    struct LastRun: Encodable {
        var run: String
        var started: Timestamp
        var finished: Timestamp?
        var outcome: JournalRecord.Outcome?
        var host: String?
        var pid: Int32?
        var from: String?
        var to: String?
    }

    struct Drift: Encodable {
        var id: String
        var ranAt: Timestamp
        var recordedFingerprint: String
        var currentFingerprint: String
    }

    struct TakeOver: Encodable {
        var run: String
        var previousRun: String
        var at: Timestamp
        var step: String?
    }

    struct Orphan: Encodable {
        var id: String
        var completedAt: Timestamp
    }

    /// The milepost release that answered.
    struct Release: Encodable {
        var version = MilepostRelease.version
        var commit = MilepostRelease.commit
    }

    var format = JSONOutput.format
    var command = "status"
    var milepost = Release()
    var store: String
    var app: String?
    var version: String?
    var updatedAt: Timestamp?
    var completed: Int
    var verdict: String
    var headline: String
    /// What to do next, most urgent first: each a `command` (its arguments) and `when`, or a `note`.
    var next: [NextStep]
    var running: InProgressStep?
    var interrupted: InProgressStep?
    var failed: FailedStep?
    var lastRun: LastRun?
    var lockHolder: LockHolder?
    var takeOver: TakeOver?
    var to: String?
    var pending: [String]?
    var drift: [Drift]?
    var neverRun: [String]?
    /// Steps the unfinished revert undid (absent without one).
    var reverted: [String]?
    var late: [LateStepDocument]?
    var orphans: [Orphan]?
    /// Steps completed on the store that a newer release than the manifest's ran (not orphans).
    var newer: [Orphan]?
    /// Repeatable steps whose entry changed since they last ran: the next run runs them again.
    var changed: [String]?
    var requiredStop: RequiredStopDocument?
    /// Steps due for a run of another phase (a contract step waiting for the rollout, a background
    /// step for the background runner); absent when none are.
    var waiting: [String]?
    /// The store's compatibility floor, when it has one.
    var floor: CompatibilityFloor?
    /// The steps awaiting approval (`requires: approval`); absent when none are.
    var awaitingApproval: [String]?
    /// When the running step is expected to end.
    var eta: ETADocument?

    init(_ report: StatusReport, app: String?, advice: StatusAdvice) {
        eta = ETADocument(report.runningETA)
        store = report.store
        floor = report.state?.floor
        self.app = app
        version = report.state?.version.text
        updatedAt = report.state?.updatedAt
        completed = report.state?.completed.count ?? 0
        verdict = advice.verdict.rawValue
        headline = advice.headline
        next = advice.next
        running = report.running
        interrupted = report.interrupted
        failed = report.failed
        lastRun = report.lastRun.map {
            LastRun(run: $0.run, started: $0.started, finished: $0.finished, outcome: $0.outcome, host: $0.host,
                    pid: $0.pid, from: $0.from, to: $0.to)
        }
        lockHolder = report.lockHolder
        takeOver = report.takeOver.map { TakeOver(run: $0.run, previousRun: $0.previousRun, at: $0.at, step: $0.step) }
        if let plan = report.plan {
            to = plan.to.text
            pending = report.pending.map(\.id)
            drift = report.drift.map {
                Drift(id: $0.id, ranAt: $0.ranAt, recordedFingerprint: $0.recorded, currentFingerprint: $0.current)
            }
            neverRun = report.neverRun.map(\.step.id)
            reverted = report.reverted.isEmpty ? nil : report.reverted.map(\.step.id)
            late = LateStepDocument.list(plan.entries)
            orphans = report.orphans.isEmpty ? nil : report.orphans.map { Orphan(id: $0.id, completedAt: $0.at) }
            newer = report.newer.isEmpty ? nil : report.newer.map { Orphan(id: $0.id, completedAt: $0.at) }
            changed = plan.changed.isEmpty ? nil : plan.changed.map(\.step.id)
            requiredStop = RequiredStopDocument(plan)
            waiting = plan.waiting.isEmpty ? nil : plan.waiting.map(\.step.id)
            let awaiting = plan.entries.filter { $0.status == .awaitingApproval }.map(\.step.id)
            awaitingApproval = awaiting.isEmpty ? nil : awaiting
        }
    }
}

struct HistoryDocument: Encodable {
    var format = JSONOutput.format
    var command = "history"
    var records: [JournalRecord]
}

struct StepsDocument: Encodable {
    struct Step: Encodable {
        var name: String
        var description: String?
        var idempotent: Bool
        var resumable: Bool
        var revision: String?
        var parameters: String
    }

    var format = JSONOutput.format
    var command = "steps"
    var steps: [Step]
}

struct VersionsDocument: Encodable {
    var format = JSONOutput.format
    var command = "versions"
    var current: String?
    var previous: String?
    var firstInstalled: String?
    var reached: [VersionHistory.Entry]

    init(_ history: VersionHistory) {
        current = history.currentVersion
        previous = history.previousVersion
        firstInstalled = history.firstInstalledVersion
        reached = history.reached
    }
}
