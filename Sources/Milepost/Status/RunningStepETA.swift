/// When a running step is expected to end: from its progress rate when it reports one with a
/// total, else from how long its runs took (`StepEstimate`): its attempt's start plus their median,
/// else plus its `expected:`. What `status` shows beside a running step.
public struct RunningStepETA: Sendable, Equatable {
    /// What the time rests on.
    public enum Basis: String, Sendable {
        /// The step's last progress report: the units left at its rate.
        case progress
        /// The median of the step's completed attempts as it is now.
        case history
        /// The manifest's `expected:`.
        case expected
    }

    /// When the step is expected to end.
    public let at: Timestamp
    public let basis: Basis
    /// From history: the p95 of its attempts; an attempt still running past its start plus this
    /// runs longer than 95 % of them.
    public let p95: Duration?

    /// The ETA of `step`, in progress, with what is known of its duration; nil when nothing tells.
    public init?(_ step: InProgressStep, estimate: StepEstimate?) {
        func after(_ start: Timestamp, _ milliseconds: Int64) -> Timestamp {
            Timestamp(millisecondsSince1970: start.millisecondsSince1970 + milliseconds)
        }
        if let progress = step.progress, let left = progress.secondsLeft {
            (at, basis, p95) = (after(progress.at, Int64(min(left, 1e12) * 1000)), .progress, nil)
        } else if let history = estimate?.history {
            (at, basis, p95) = (after(step.since, Self.milliseconds(history.median)), .history, history.p95)
        } else if let expected = estimate?.expected {
            (at, basis, p95) = (after(step.since, Self.milliseconds(expected)), .expected, nil)
        } else {
            return nil
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
