import Milepost
import MilepostSystem

// The parts of the JSON documents about durations, deadlines, approvals and reviewed plans
// (`plan`, `run`, `status`); docs/json.md documents each.

/// A step's completed attempts: how many, and their median, p95 and longest duration.
struct DurationDocument: Encodable {
    var runs: Int
    var medianMs: Int
    var p95Ms: Int
    var maxMs: Int

    init?(_ statistics: DurationStatistics?) {
        guard let statistics else { return nil }
        runs = statistics.runs
        medianMs = DurationText.milliseconds(statistics.median)
        p95Ms = DurationText.milliseconds(statistics.p95)
        maxMs = DurationText.milliseconds(statistics.max)
    }
}

/// `plan --deadline`: the pending work at p95 against the deadline.
struct DeadlineDocument: Encodable {
    struct Item: Encodable {
        var id: String
        var ms: Int
        /// `history`, `expected` or `edited-history`.
        var basis: String
    }

    var deadlineMs: Int
    var totalMs: Int
    var fits: Bool
    /// The steps that make up most of the total, longest first.
    var largest: [Item]
    /// The pending steps nothing is known of: not counted.
    var unknown: [String]
    /// Of `largest`, the resumable pre-start steps `phase: background` would take off the start path.
    var backgroundCandidates: [String]
    var message: String

    init(_ budget: DeadlineBudget) {
        deadlineMs = DurationText.milliseconds(budget.deadline)
        totalMs = DurationText.milliseconds(budget.total)
        fits = budget.fits
        largest = budget.largest.map { Item(id: $0.step.id, ms: DurationText.milliseconds($0.duration), basis: $0.basis.rawValue) }
        unknown = budget.unknown.map(\.id)
        backgroundCandidates = budget.backgroundCandidates.map(\.id)
        message = budget.summary
    }
}

/// An approval of a `requires: approval` step (`milepost approve`).
struct ApprovalDocument: Encodable {
    var step: String
    var by: String
    var at: Timestamp
    /// The reviewed plan's digest, when the approval was given for one.
    var plan: String?

    init(_ approval: StepApprovals.Approval) {
        step = approval.step
        by = approval.by
        at = approval.at
        plan = approval.plan
    }
}

/// `run --deadline`: the step the run stopped before.
struct DeadlineRefusalDocument: Encodable {
    var step: String
    var needsMs: Int
    /// `history`, `expected` or `edited-history`.
    var basis: String
    var leftMs: Int
    var deadlineMs: Int
    var message: String

    init?(_ refusal: DeadlineRefusal?) {
        guard let refusal else { return nil }
        step = refusal.step
        needsMs = DurationText.milliseconds(refusal.needs)
        basis = refusal.basis.rawValue
        leftMs = max(0, DurationText.milliseconds(refusal.left))
        deadlineMs = DurationText.milliseconds(refusal.deadline)
        message = refusal.message
    }
}

/// `run --plan`: one thing that changed since the plan was made.
struct PlanChangeDocument: Encodable {
    /// `target`, `labels`, `phase`, `manifest`, `state` or `steps`.
    var subject: String
    var message: String

    init(_ change: PlanChange) {
        subject = change.subject.rawValue
        message = change.message
    }
}

/// `status`: when the running step is expected to end.
struct ETADocument: Encodable {
    var at: Timestamp
    /// `progress`, `history` or `expected`.
    var basis: String
    /// With `history`: the p95 of the step's runs.
    var p95Ms: Int?

    init?(_ eta: RunningStepETA?) {
        guard let eta else { return nil }
        at = eta.at
        basis = eta.basis.rawValue
        p95Ms = eta.p95.map(DurationText.milliseconds)
    }
}
