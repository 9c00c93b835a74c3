/// The duration syntax of manifests and flags: a whole number and a unit,
/// `250ms`, `30s`, `5m`, `1h`.
package enum DurationText {
    /// Parses `text`; nil when it is not a whole number followed by `ms`, `s`, `m` or `h`.
    package static func parse(_ text: String) -> Duration? {
        let units: [(suffix: String, milliseconds: Int64)] = [
            ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000),
        ]
        for unit in units where text.hasSuffix(unit.suffix) {
            let digits = text.dropLast(unit.suffix.count)
            guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = Int64(digits)
            else { return nil }
            return .milliseconds(value * unit.milliseconds)
        }
        return nil
    }

    /// `duration` in whole milliseconds, rounded down.
    package static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Formats `duration` in the largest unit that keeps it whole (`90s`, `5m`, `250ms`).
    package static func format(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        if ms % 3_600_000 == 0, ms != 0 { return "\(ms / 3_600_000)h" }
        if ms % 60_000 == 0, ms != 0 { return "\(ms / 60_000)m" }
        if ms % 1_000 == 0 { return "\(ms / 1_000)s" }
        return "\(ms)ms"
    }
}
