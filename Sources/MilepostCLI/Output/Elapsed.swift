import Milepost
import MilepostSystem

/// Durations and ages for people: `38 ms`, `12.4 s`, `3 min 05 s`; `5 min ago`.
enum Elapsed {
    /// `milliseconds` in the unit a person reads fastest.
    static func text(milliseconds: Int) -> String { DurationText.readable(milliseconds: milliseconds) }

    /// `3 min ago` for a stored moment, as seen at `now`.
    static func age(of timestamp: Timestamp, now: Timestamp = .now()) -> String {
        let milliseconds = now.milliseconds(since: timestamp)
        let seconds = milliseconds < 0 ? -1 : Int(milliseconds / 1_000)
        return switch seconds {
        case ..<0: "in the future: check this host's clock"
        case ..<60: "\(seconds) s ago"
        case ..<3_600: "\(seconds / 60) min ago"
        case ..<172_800: "\(seconds / 3_600) h ago"
        default: "\(seconds / 86_400) days ago"
        }
    }
}
