import Milepost
import MilepostSystem

/// When a running step is expected to end, for people: `about 12:05:30Z (in 2 min 10 s; the median
/// of its runs, p95 5 min 00 s)`, or that it runs longer than 95 % of its runs.
enum ETAText {
    static func text(_ eta: RunningStepETA, since: Timestamp, now: Timestamp) -> String {
        let left = Int(eta.at.milliseconds(since: now))
        let basis = switch eta.basis {
        case .progress: "its progress rate"
        case .history: "the median of its runs" + (eta.p95.map { ", p95 \(DurationText.readable($0))" } ?? "")
        case .expected: "its expected:"
        }
        if let p95 = eta.p95, Int(now.milliseconds(since: since)) > DurationText.milliseconds(p95) {
            return "overdue: running for longer than 95 % of its runs took (\(basis))"
        }
        let when = left >= 0 ? "in \(DurationText.readable(milliseconds: left))" : "\(DurationText.readable(milliseconds: -left)) ago"
        return "about \(eta.at) (\(when); \(basis))"
    }
}
