import Glibc

/// A moment in UTC to the millisecond, as the state, the journal and the lock write it:
/// ISO 8601 with milliseconds, `2026-11-21T02:56:57.123Z`. The one type that writes and parses
/// that text: stores decode it once (`Codable`), and everything after works with the value.
///
/// Public, unlike the rest of this target, because the stored records `Milepost` exposes carry it
/// (`Milepost` re-exports it as `Milepost.Timestamp`).
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// Now, by the system's real-time clock.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(millisecondsSince1970: Int64(spec.tv_sec) * 1_000 + Int64(spec.tv_nsec / 1_000_000))
    }

    /// Parses exactly the text `text` writes, `YYYY-MM-DDTHH:MM:SS.mmmZ`; nil for anything else
    /// (another shape, a month 13, February 30), so a parsed timestamp is written back byte for byte.
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        guard let parsed = text.withUTF8({ Timestamp(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// Parses `bytes` as `init(_:)` does, without allocating (the state's pre-start scan).
    package init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 24 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
              bytes[23] == UInt8(ascii: "Z"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let millisecond = number(20..<23),
              (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let seconds = ((Self.daysSince1970(year: year, month: month, day: day) * 24 + hour) * 60 + minute) * 60 + second
        self.init(millisecondsSince1970: seconds * 1_000 + millisecond)
    }

    private static func days(inMonth month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `2026-11-21T02:56:57.123Z`.
    public var text: String {
        var seconds = time_t(millisecondsSince1970.floorDivided(by: 1_000))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let millisecond = Int32(millisecondsSince1970 - millisecondsSince1970.floorDivided(by: 1_000) * 1_000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
            + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
            + ".\(pad(millisecond, 3))Z"
    }

    public var description: String { text }

    /// Milliseconds from `earlier` to this moment (negative when `earlier` is later).
    public func milliseconds(since earlier: Timestamp) -> Int64 {
        millisecondsSince1970 - earlier.millisecondsSince1970
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let timestamp = Timestamp(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a timestamp (YYYY-MM-DDTHH:MM:SS.mmmZ, UTC)")
        }
        self = timestamp
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

extension Int64 {
    /// Division rounding towards minus infinity, so times before 1970 format as well.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
