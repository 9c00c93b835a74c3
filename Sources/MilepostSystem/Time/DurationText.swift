/// The duration syntax of manifests and flags, as Go, Kubernetes and systemd write it: one or more
/// numbers, each with a unit (`ms`, `s`, `m`, `h`, `d`), decimals allowed: `250ms`, `90s`, `1h30m`, `1.5h`.
package enum DurationText {
    /// Each unit in milliseconds.
    private static let units: [(name: String, milliseconds: Int64)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    /// The unit names, for messages: `ms, s, m, h, d`.
    package static let unitNames = units.map(\.name).joined(separator: ", ")

    /// Parses `text`; nil when `read` would say why it is not a duration.
    package static func parse(_ text: String) -> Duration? { try? read(text) }

    /// Parses `text` as a duration its consumer can hold (`bounds`); throws what is wrong with it.
    package static func read(_ text: String, within bounds: DurationBounds) throws(InvalidDuration) -> Duration {
        let duration = try read(text)
        try bounds.check(duration)
        return duration
    }

    /// Parses `text`, a sequence of number and unit; throws what is wrong with it. Read as UTF-8
    /// bytes, copied into an array: numbers and units are ASCII, and any other byte makes the text
    /// malformed (slicing an array costs a fraction of slicing `Substring.UTF8View`).
    package static func read(_ text: String) throws(InvalidDuration) -> Duration {
        guard !text.isEmpty else { throw .empty }
        guard !text.hasPrefix("-") else { throw .negative }
        let bytes = Array(text.utf8)
        var rest = bytes[...]
        var total: Int64 = 0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCIIDigit || $0 == UInt8(ascii: ".") }
            let unit = rest.dropFirst(number.count).prefix(while: isLetter)
            let atEnd = rest.count == number.count
            rest = rest.dropFirst(number.count + unit.count)
            let dots = number.lazy.filter { $0 == UInt8(ascii: ".") }.count
            guard number.contains(where: \.isASCIIDigit), dots <= 1, !unit.isEmpty || atEnd else { throw .malformed }
            if unit.isEmpty {
                throw number.count == text.utf8.count ? .bareNumber : .missingUnit(String(decoding: number, as: UTF8.self))
            }
            guard let scale = units.first(where: { $0.name.utf8.elementsEqual(unit) })?.milliseconds else {
                throw .unknownUnit(String(decoding: unit, as: UTF8.self))
            }
            let (sum, overflow) = total.addingReportingOverflow(try milliseconds(number, times: scale))
            guard !overflow else { throw .tooLong }
            total = sum
        }
        return .milliseconds(total)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// `number` (digits, at most one `.`) times `scale` milliseconds, which must come out whole.
    private static func milliseconds(_ number: ArraySlice<UInt8>, times scale: Int64) throws(InvalidDuration) -> Int64 {
        let dot = number.firstIndex(of: UInt8(ascii: "."))
        let whole = number[..<(dot ?? number.endIndex)].drop { $0 == UInt8(ascii: "0") }
        var decimals = dot.map { number[number.index(after: $0)...] } ?? number[number.endIndex...]
        while decimals.last == UInt8(ascii: "0") { decimals = decimals.dropLast() }
        // With more than 10 significant decimals no unit here (a day is 864·10⁵ ms) gives whole milliseconds.
        guard decimals.count <= 10 else { throw .finerThanMillisecond }
        guard let count = value(of: whole) else { throw .tooLong }
        let (product, overflow) = count.multipliedReportingOverflow(by: scale)
        guard !overflow else { throw .tooLong }
        guard !decimals.isEmpty, let fraction = value(of: decimals) else { return product }
        var denominator: Int64 = 1
        for _ in decimals { denominator *= 10 }
        let part = fraction * scale
        guard part % denominator == 0 else { throw .finerThanMillisecond }
        let (sum, sumOverflow) = product.addingReportingOverflow(part / denominator)
        guard !sumOverflow else { throw .tooLong }
        return sum
    }

    /// The value of ASCII `digits` (0 for none); nil when it does not fit in an `Int64`.
    private static func value(of digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = shifted.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflow, !sumOverflow else { return nil }
            value = sum
        }
        return value
    }

    /// `duration` in whole milliseconds, rounded down.
    package static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// `milliseconds` in the unit a person reads fastest: `38 ms`, `12.4 s`, `3 min 05 s`, `2 h 10 min`.
    package static func readable(milliseconds: Int) -> String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 { return "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100) s" }
        let seconds = milliseconds / 1_000
        if seconds < 3_600 { return "\(seconds / 60) min \(twoDigits(seconds % 60)) s" }
        return "\(seconds / 3_600) h \(twoDigits(seconds / 60 % 60)) min"
    }

    /// `duration` as `readable(milliseconds:)` words it.
    package static func readable(_ duration: Duration) -> String { readable(milliseconds: milliseconds(duration)) }

    /// Formats `duration` in the largest unit up to hours that keeps it whole (`90s`, `5m`, `250ms`).
    package static func format(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        if ms % 3_600_000 == 0, ms != 0 { return "\(ms / 3_600_000)h" }
        if ms % 60_000 == 0, ms != 0 { return "\(ms / 60_000)m" }
        if ms % 1_000 == 0 { return "\(ms / 1_000)s" }
        return "\(ms)ms"
    }
}
