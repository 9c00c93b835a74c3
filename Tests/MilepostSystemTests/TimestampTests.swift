import MilepostSystem
import Foundation
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00.000Z", Int64(0)),
        ("2026-11-21T02:56:57.123Z", Int64(1_795_229_817_123)),
        ("2000-02-29T23:59:59.999Z", Int64(951_868_799_999)),
        ("1969-12-31T23:59:59.999Z", Int64(-1)),
        ("9999-12-31T23:59:59.999Z", Int64(253_402_300_799_999)),
    ])
    func parsesWhatItWritesAndWritesItBack(text: String, milliseconds: Int64) throws {
        let timestamp = try #require(Timestamp(text))
        #expect(timestamp.millisecondsSince1970 == milliseconds)
        #expect(timestamp.text == text)
        #expect(Timestamp(millisecondsSince1970: milliseconds).text == text)
    }

    @Test(arguments: [
        "", "2026-11-21T02:56:57Z", "2026-11-21T02:56:57.12Z", "2026-11-21 02:56:57.123Z", "2026-11-21T02:56:57.123",
        "2026-11-21T02:56:57.123+00:00", "2026-13-01T00:00:00.000Z", "2026-00-01T00:00:00.000Z",
        "2026-02-29T00:00:00.000Z", "1900-02-29T00:00:00.000Z", "2026-04-31T00:00:00.000Z", "2026-01-00T00:00:00.000Z",
        "2026-01-01T24:00:00.000Z", "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z", "2026-01-01T00:00:00.-00Z",
        "２026-01-01T00:00:00.000Z", "2026-01-01t00:00:00.000z",
    ])
    func refusesAnythingElse(text: String) {
        #expect(Timestamp(text) == nil)
    }

    @Test func nowIsWrittenInTheOneShapeAndOrdered() throws {
        let before = Timestamp.now()
        let after = Timestamp.now()
        #expect(before <= after)
        #expect(after.milliseconds(since: before) >= 0)
        #expect(Timestamp(before.text) == before)
    }

    @Test func encodesAsItsTextAndDecodesOnlyTimestamps() throws {
        let timestamp = try #require(Timestamp("2026-01-02T03:04:05.678Z"))
        let json = try JSONEncoder().encode([timestamp])
        #expect(String(decoding: json, as: UTF8.self) == #"["2026-01-02T03:04:05.678Z"]"#)
        #expect(try JSONDecoder().decode([Timestamp].self, from: json) == [timestamp])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Timestamp].self, from: Data(#"["yesterday"]"#.utf8)) }
    }
}
