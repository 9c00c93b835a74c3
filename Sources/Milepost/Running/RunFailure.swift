/// A run that did not bring the store to its target: what `Runner.migrate(to:manifest:)` throws for
/// every outcome that is a failure (`RunReport.Outcome.isFailure`), so an app catches one type
/// whatever went wrong, with the step it is about and that step's own error.
///
/// ```swift
/// do {
///     try await runner.migrate(to: "2.7") { try Manifest.load(path: manifestPath, registry: registry) }
/// } catch let failure as RunFailure {
///     if case .diskFull? = failure.underlying as? NotesError { showDiskFullAlert() }
///     logger.error("\(failure)")   // step 2.7/archiveNotes failed: …
/// }
/// ```
public struct RunFailure: Error, CustomStringConvertible {
    /// The whole report of the run, as `Runner.run(to:manifest:)` returns it.
    public let report: RunReport
    /// The step (`THRESHOLD/ID`) or hook the failure is about: the one that failed, the one the
    /// run was interrupted in, the interrupted step that blocks runs until it is resolved, the
    /// contract step that raised the compatibility floor above a refused target, the first late
    /// step under `late: fail`, the step a deadline or a missing approval stopped the run before.
    /// Nil when none is (a required stop, an unfinished revert, a changed plan, a run cancelled
    /// between two steps).
    public let step: String?
    /// The failure in words, as the journal's `run-finished` record has it (secrets redacted).
    public let description: String

    /// The run's outcome: one whose `isFailure` is true.
    public var outcome: RunReport.Outcome { report.outcome }

    /// The error the step's own closure threw in its last attempt, as it threw it, so that the app
    /// matches its own type (`failure.underlying as? MyError`); nil when no closure threw (a
    /// timeout, an interruption, a refused run).
    public var underlying: (any Error)? { stopped?.underlying }

    /// The step or hook the run stopped at, when one did.
    private let stopped: RunReport.StepResult?

    /// The failure of `report`; nil when the run did not fail.
    public init?(_ report: RunReport) {
        guard report.outcome.isFailure else { return nil }
        self.report = report
        // A run stops at its first step that does not succeed; a `before_run` hook stops it before any.
        let stopped = report.steps.first { $0.status != .succeeded } ?? report.hooks.first { $0.status != .succeeded }
        self.stopped = stopped
        switch report.outcome {
        case .failed where report.steps.isEmpty:
            step = stopped?.id
            description = Self.hookFailed(stopped?.id ?? "?", error: stopped?.error)
        case .failed:
            step = stopped?.id
            description = "step \(stopped?.id ?? "?") failed: \(stopped?.error ?? "")"
        case .interrupted:
            step = stopped?.id
            description = switch stopped?.status {
            case .failed?: "the run was cancelled while step \(stopped?.id ?? "?") waited to be retried; it stays failed: \(stopped?.error ?? "")"
            case .interrupted?: "the run was cancelled during step \(stopped?.id ?? "?"), which is recorded as interrupted"
            case .succeeded?, nil: "the run was cancelled between two steps"
            }
        case .blocked:
            step = report.interrupted?.id
            description = report.interrupted.map(Self.blocking) ?? "an interrupted step must be resolved first"
        case .downgradeRefused:
            step = report.floor?.step
            description = report.refusal.map(\.description) ?? "\(report.to) is below the stored version \(report.from)"
        case .stopRequired:
            step = nil
            description = report.plan?.requiredStop?.message(from: report.from, to: report.to) ?? "a required stop comes first"
        case .lateRefused:
            let late = report.plan?.lateRefused.map(\.step.id) ?? []
            step = late.first
            description = Self.lateRefusal(late)
        case .revertUnfinished:
            step = nil
            description = report.reverting.map { RevertError.unfinished(to: $0.to).description } ?? "a revert is unfinished"
        case .deadlineRefused:
            step = report.deadlineRefusal?.step
            description = report.deadlineRefusal?.message ?? "a step no longer fits the deadline"
        case .awaitingApproval:
            step = report.plan?.approvalGate?.step.id
            description = Self.awaitingApproval(step ?? "?")
        case .planChanged:
            step = nil
            description = Self.planChanged(report.planChanges)
        case .upToDate, .succeeded, .downgradeAllowed, .downgradeCompatible, .dryRun:
            preconditionFailure("\(report.outcome) is no failure")
        }
    }

    // MARK: - Words shared with the journal

    /// Why a run stops at `step`, interrupted and neither resolved nor safe to run again.
    static func blocking(_ step: InProgressStep) -> String {
        "step \(step.id) was interrupted (pid \(step.pid) on \(step.host) since \(step.since)); "
            + "it must be resolved first, as done or to retry"
    }

    /// Why a run with late steps under `late: fail` (`ids`) refuses to start.
    static func lateRefusal(_ ids: [String]) -> String {
        "late steps under 'late: fail': \(ids.joined(separator: ", "))"
    }

    /// Why a run stopped before `id`, a `requires: approval` step without an approval.
    static func awaitingApproval(_ id: String) -> String {
        "step \(id) requires approval: the run stops before it until an approval of it is recorded"
    }

    /// Why a run of a reviewed plan refused: what changed since the plan was made.
    static func planChanged(_ changes: [PlanChange]) -> String {
        "the plan no longer holds: " + changes.map(\.message).joined(separator: "; ")
    }

    /// Why a run whose `before_run` hook `id` failed ran no step.
    static func hookFailed(_ id: String, error: String?) -> String {
        "hook \(id) failed, so no step ran: \(error ?? "")"
    }
}
