import Foundation

/// Durations and ages for people: `38 ms`, `12.4 s`, `3 min 05 s`; `5 min ago`.
enum Elapsed {
    /// `milliseconds` in the unit a person reads fastest.
    static func text(milliseconds: Int) -> String {
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 { return "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100) s" }
        let seconds = milliseconds / 1_000
        if seconds < 3_600 { return "\(seconds / 60) min \(twoDigits(seconds % 60)) s" }
        return "\(seconds / 3_600) h \(twoDigits(seconds / 60 % 60)) min"
    }

    /// `3 min ago` for a journal or state timestamp (`2026-11-21T02:56:57.123Z`); nil when it does not parse.
    static func age(of timestamp: String, now: Date = Date()) -> String? {
        guard let then = seconds(since1970: timestamp) else { return nil }
        let seconds = Int((now.timeIntervalSince1970 - then).rounded(.down))
        return switch seconds {
        case ..<0: "in the future: check this host's clock"
        case ..<60: "\(seconds) s ago"
        case ..<3_600: "\(seconds / 60) min ago"
        case ..<172_800: "\(seconds / 3_600) h ago"
        default: "\(seconds / 86_400) days ago"
        }
    }

    /// Milliseconds from `start` to `end`, both timestamps; nil when either does not parse.
    static func milliseconds(from start: String, to end: String) -> Int? {
        guard let start = seconds(since1970: start), let end = seconds(since1970: end) else { return nil }
        return Int(((end - start) * 1_000).rounded())
    }

    /// Parses the one timestamp shape Milepost writes: `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
    static func seconds(since1970 timestamp: String) -> Double? {
        let fields = timestamp.split(whereSeparator: { "-T:.Z".contains($0) }).map { Int($0) }
        guard fields.count == 7, let year = fields[0], let month = fields[1], let day = fields[2],
              let hour = fields[3], let minute = fields[4], let second = fields[5], let millis = fields[6]
        else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        return Double(timegm(&parts)) + Double(millis) / 1_000
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
