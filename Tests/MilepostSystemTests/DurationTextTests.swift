import MilepostSystem
import Testing

@Suite struct DurationTextTests {
    @Test(arguments: [
        ("250ms", Int64(250)), ("90s", 90_000), ("5m", 300_000), ("1h", 3_600_000), ("2d", 172_800_000),
        ("1h30m", 5_400_000), ("1.5h", 5_400_000), (".5s", 500), ("5.s", 5_000), ("1m0.25s", 60_250),
        ("0.001s", 1), ("1.0000000000s", 1_000), ("2h45m30s100ms", 9_930_100), ("0s", 0), ("007s", 7_000),
    ])
    func readsNumbersWithUnits(text: String, milliseconds: Int64) throws {
        #expect(try DurationText.read(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: [
        ("", InvalidDuration.empty), ("-5s", .negative), ("30", .bareNumber), ("1.5", .bareNumber),
        ("1h30", .missingUnit("30")), ("5us", .unknownUnit("us")), ("5min", .unknownUnit("min")),
        ("h", .malformed), ("5 min", .malformed), ("1..5s", .malformed), ("+5s", .malformed), ("1µs", .malformed),
        ("1.5ms", .finerThanMillisecond), ("0.0001s", .finerThanMillisecond), ("1.00000000001d", .finerThanMillisecond),
        ("9999999999999999999ms", .tooLong), ("5000000000000000h", .tooLong), ("9223372036854775807ms1ms", .tooLong),
    ])
    func saysWhyOtherTextIsNoDuration(text: String, problem: InvalidDuration) {
        #expect(throws: problem) { try DurationText.read(text) }
        #expect(DurationText.parse(text) == nil)
    }

    @Test func aBareNumberIsToldTheUnits() {
        #expect(InvalidDuration.bareNumber.description
            == "a bare number has no unit: write 30s, 500ms, 5m or 1h (units: ms, s, m, h, d)")
    }

    @Test(arguments: [("250ms", "250ms"), ("90s", "90s"), ("1h30m", "90m"), ("1.5h", "90m"), ("1d", "24h")])
    func printsTheLargestWholeUnitUpToHours(text: String, printed: String) throws {
        #expect(DurationText.format(try DurationText.read(text)) == printed)
    }

    static let bounds = DurationBounds(minimum: .milliseconds(500), maximum: .seconds(86_400), limit: "the consumer counts to a day")

    /// A consumer's bounds (`DurationBounds`): read in the same call as the syntax, each refusal
    /// saying what it takes; the bounds themselves are held.
    @Test(arguments: [
        ("500ms", nil), ("24h", nil), ("1d", nil), ("499ms", InvalidDuration.shorterThan(.milliseconds(500))),
        ("0s", .shorterThan(.milliseconds(500))), ("1d1ms", .longerThan(.seconds(86_400), limit: "the consumer counts to a day")),
        ("100000000d", .longerThan(.seconds(86_400), limit: "the consumer counts to a day")), ("soon", .malformed),
    ])
    func readsWithinAConsumersBounds(text: String, problem: InvalidDuration?) throws {
        if let problem {
            #expect(throws: problem) { try DurationText.read(text, within: Self.bounds) }
        } else {
            #expect(try DurationText.read(text, within: Self.bounds) == DurationText.read(text))
        }
    }

    @Test func aRefusalSaysWhatTheConsumerTakes() {
        #expect(InvalidDuration.shorterThan(.milliseconds(500)).description == "give at least 500ms")
        #expect(InvalidDuration.longerThan(.seconds(86_400), limit: "the consumer counts to a day").description
            == "give at most 24h: the consumer counts to a day")
    }
}

