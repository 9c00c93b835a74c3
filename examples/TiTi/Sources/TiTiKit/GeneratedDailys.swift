/// A large, reproducible data set for trying `removeEmptyDailys` at scale (`titi-sample`, the tests).
///
/// Dailys on consecutive days from 2000-01-01 (a million reach the year 4737: only the size matters),
/// about one in four empty; the same `count` always gives the same dailys.
public enum GeneratedDailys {
    public static func make(count: Int) -> [Daily] {
        var random = SplitMix64(seed: 2_000)
        return (0..<count).map { offset in
            let draw = random.next()
            let seconds = draw % 4 == 0 ? 0 : Double(60 + (draw >> 8) % 36_000)
            return Daily(date: civilDate(daysSince2000: offset), totalTime: seconds)
        }
    }

    /// `YYYY-MM-DD` of the day `days` after 2000-01-01 (proleptic Gregorian; H. Hinnant's algorithm).
    static func civilDate(daysSince2000 days: Int) -> String {
        let z = days + 10_957 + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// A small, fast pseudo-random generator with a fixed seed, so the data set is the same everywhere.
    struct SplitMix64 {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
