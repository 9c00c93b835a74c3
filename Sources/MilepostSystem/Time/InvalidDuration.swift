/// Why a text is not a duration (`DurationText.read`); its description completes "invalid timeout 'x': …".
package enum InvalidDuration: Error, Equatable, CustomStringConvertible {
    case empty
    case negative
    /// A number with no unit at all, `30`.
    case bareNumber
    /// A number after the first with no unit, the `30` of `1h30`.
    case missingUnit(String)
    case unknownUnit(String)
    /// Anything else that is not numbers and units, `h`, `1..5s`, `5 min`.
    case malformed
    case finerThanMillisecond
    case tooLong
    /// Shorter than its consumer takes (`DurationBounds.minimum`).
    case shorterThan(Duration)
    /// Longer than its consumer can hold (`DurationBounds.maximum`), and why.
    case longerThan(Duration, limit: String)

    package var description: String {
        switch self {
        case .empty: "an empty duration: write 30s, 500ms, 5m or 1h"
        case .negative: "a duration cannot be negative"
        case .bareNumber: "a bare number has no unit: write 30s, 500ms, 5m or 1h (units: \(DurationText.unitNames))"
        case .missingUnit(let number): "\(number) has no unit: give each number one of \(DurationText.unitNames), e.g. 1h30m"
        case .unknownUnit(let unit): "unknown unit '\(unit)': the units are \(DurationText.unitNames)"
        case .malformed: "expected numbers with units (\(DurationText.unitNames)), e.g. 30s, 1h30m or 1.5h"
        case .finerThanMillisecond: "finer than a millisecond: durations are counted in whole milliseconds"
        case .tooLong: "too long a duration"
        case .shorterThan(let minimum): "give at least \(DurationText.format(minimum))"
        case .longerThan(let maximum, let limit): "give at most \(DurationText.format(maximum)): \(limit)"
        }
    }
}
