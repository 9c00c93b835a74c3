/// The duration syntax of manifests and flags, as Go, Kubernetes and systemd write it: one or more
/// numbers, each with a unit (`ms`, `s`, `m`, `h`, `d`), decimals allowed: `250ms`, `90s`, `1h30m`, `1.5h`.
package enum DurationText {
    /// Each unit in milliseconds.
    private static let units: [(name: Substring, milliseconds: Int64)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    /// The unit names, for messages: `ms, s, m, h, d`.
    package static let unitNames = units.map { String($0.name) }.joined(separator: ", ")

    /// Parses `text`; nil when `read` would say why it is not a duration.
    package static func parse(_ text: String) -> Duration? { try? read(text) }

    /// Parses `text`, a sequence of number and unit; throws what is wrong with it.
    package static func read(_ text: String) throws(InvalidDuration) -> Duration {
        guard !text.isEmpty else { throw .empty }
        guard !text.hasPrefix("-") else { throw .negative }
        var rest = Substring(text)
        var total: Int64 = 0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            let unit = rest.dropFirst(number.count).prefix { $0.isASCII && $0.isLetter }
            let atEnd = rest.count == number.count
            rest = rest.dropFirst(number.count + unit.count)
            guard number.contains(where: \.isNumber), number.filter({ $0 == "." }).count <= 1, !unit.isEmpty || atEnd else {
                throw .malformed
            }
            if unit.isEmpty { throw number.count == text.count ? .bareNumber : .missingUnit(String(number)) }
            guard let scale = units.first(where: { $0.name == unit })?.milliseconds else { throw .unknownUnit(String(unit)) }
            let (sum, overflow) = total.addingReportingOverflow(try milliseconds(number, times: scale))
            guard !overflow else { throw .tooLong }
            total = sum
        }
        return .milliseconds(total)
    }

    /// `number` (digits, at most one `.`) times `scale` milliseconds, which must come out whole.
    private static func milliseconds(_ number: Substring, times scale: Int64) throws(InvalidDuration) -> Int64 {
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0].drop { $0 == "0" }
        // With more than 10 significant decimals no unit here (a day is 864·10⁵ ms) gives whole milliseconds.
        let decimals = parts.count > 1 ? parts[1].reversed().drop { $0 == "0" }.reversed() : []
        guard decimals.count <= 10 else { throw .finerThanMillisecond }
        guard let count = whole.isEmpty ? 0 : Int64(String(whole)) else { throw .tooLong }
        let (product, overflow) = count.multipliedReportingOverflow(by: scale)
        guard !overflow else { throw .tooLong }
        guard !decimals.isEmpty, let fraction = Int64(String(decimals)) else { return product }
        var denominator: Int64 = 1
        for _ in decimals { denominator *= 10 }
        let part = fraction * scale
        guard part % denominator == 0 else { throw .finerThanMillisecond }
        let (sum, sumOverflow) = product.addingReportingOverflow(part / denominator)
        guard !sumOverflow else { throw .tooLong }
        return sum
    }

    /// `duration` in whole milliseconds, rounded down.
    package static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Formats `duration` in the largest unit up to hours that keeps it whole (`90s`, `5m`, `250ms`).
    package static func format(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        if ms % 3_600_000 == 0, ms != 0 { return "\(ms / 3_600_000)h" }
        if ms % 60_000 == 0, ms != 0 { return "\(ms / 60_000)m" }
        if ms % 1_000 == 0 { return "\(ms / 1_000)s" }
        return "\(ms)ms"
    }
}
