import MilepostSystem

/// A deadline against the work a plan would run (`plan --deadline`): each pending step at its
/// budgeted duration (`StepEstimate.budgeted`: the p95 of its history, else its `expected:`),
/// summed, in run order. A step nothing is known of is listed apart and not counted.
public struct DeadlineBudget: Sendable {
    /// A pending step and the duration the budget counts for it.
    public struct Item: Sendable {
        public let step: ManifestStep
        public let duration: Duration
        public let basis: StepEstimate.Basis
    }

    public let deadline: Duration
    /// The pending steps with an estimate, in run order.
    public let items: [Item]
    /// The pending steps with neither history nor `expected:`: the total leaves them out.
    public let unknown: [ManifestStep]

    /// The plan's pending steps (`Plan.pending`) against `deadline`, at what `durations` say.
    public init(_ plan: Plan, durations: StepDurations, deadline: Duration) {
        self.deadline = deadline
        var items: [Item] = []
        var unknown: [ManifestStep] = []
        for step in plan.pending {
            if let (duration, basis) = durations.estimate(for: step).budgeted {
                items.append(Item(step: step, duration: duration, basis: basis))
            } else {
                unknown.append(step)
            }
        }
        self.items = items
        self.unknown = unknown
    }

    /// The pending work at its budgeted durations.
    public var total: Duration { items.reduce(.zero) { $0 + $1.duration } }

    /// The work fits the deadline (the steps with no estimate left out).
    public var fits: Bool { total <= deadline }

    /// The steps that make up most of the total: the longest first, until they make 80 % of it.
    public var largest: [Item] {
        let total = DurationText.milliseconds(self.total)
        var sum = 0
        var largest: [Item] = []
        for item in items.sorted(by: { $0.duration > $1.duration }) where sum * 5 < total * 4 {
            largest.append(item)
            sum += DurationText.milliseconds(item.duration)
        }
        return largest
    }

    /// The pre-start steps among `largest` that are resumable: `phase: background` would take them
    /// off the start path, where they resume at their cursor after a crash.
    public var backgroundCandidates: [ManifestStep] {
        largest.map(\.step).filter { $0.phase == .preStart && $0.resumable && $0.repeats == nil && $0.scope == .fleet }
    }

    /// The verdict in words: the total against the deadline, the steps that make most of it, and
    /// what to move to the background.
    public var summary: String {
        let total = DurationText.readable(total), deadline = DurationText.readable(deadline)
        var text = fits
            ? "the pending work takes \(total) at p95, within the deadline \(deadline)"
            : "the pending work takes \(total) at p95, over the deadline \(deadline): "
                + largest.map { "\($0.step.id) \(DurationText.readable($0.duration))" }.joined(separator: ", ")
        if !unknown.isEmpty {
            text += "; \(counted(unknown.count, "step")) with no history and no 'expected:' not counted (\(unknown.map(\.id).joined(separator: ", ")))"
        }
        let candidates = backgroundCandidates
        if !fits, !candidates.isEmpty {
            text += "; \(candidates.map(\.id).joined(separator: ", ")) \(candidates.count == 1 ? "is" : "are") resumable: "
                + "'phase: background' runs \(candidates.count == 1 ? "it" : "them") after the release starts"
        }
        return text
    }
}

/// Why a run stopped before a step (`RunOptions.deadline`): the step's budgeted duration no longer
/// fits what is left of the deadline.
public struct DeadlineRefusal: Sendable, Equatable {
    /// The step the run did not start.
    public let step: String
    /// What the step is expected to take (`StepEstimate.budgeted`), and from what.
    public let needs: Duration
    public let basis: StepEstimate.Basis
    /// What was left of the deadline when the step was due.
    public let left: Duration
    public let deadline: Duration

    /// The refusal of `step` with `left` of `deadline` to go; nil when it fits or nothing is known of it.
    public init?(_ step: ManifestStep, estimate: StepEstimate, left: Duration, deadline: Duration) {
        guard let (needs, basis) = estimate.budgeted, needs > left else { return nil }
        self.step = step.id
        self.needs = needs
        self.basis = basis
        self.left = left
        self.deadline = deadline
    }

    /// The refusal in words, as the journal and the command line show it.
    public var message: String {
        let source = switch basis {
        case .history: "p95 of its runs"
        case .expected: "its 'expected:'"
        case .editedHistory: "p95 of the runs of its earlier entry"
        }
        return "\(step) needs \(DurationText.readable(needs)) (\(source)) and \(DurationText.readable(max(left, .zero))) "
            + "of the deadline \(DurationText.readable(deadline)) is left: the run stops before it"
    }
}
