import Foundation
import Testing

/// `--log-format json`: every diagnostic line on stderr is one JSON object with `time`, `level`,
/// `message`, and `run` and `step` while a step runs.
@Suite struct JSONLogTests {
    @Test func stepLogsAreJSONObjectsWithTheRunAndTheStep() throws {
        let work = try WorkDirectory()
        try work.write(GoldenTests.execSteps([(threshold: "1.1", id: "first", command: "['true']")]), to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "1.1", "--format", "json", "--log-format", "json", "--log-level", "info")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.isEmpty == false)
        var messages: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
            #expect(object["level"] == "info")
            #expect(object["time"]?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) != nil, "\(line)")
            #expect(object["step"] == "1.1/first")
            #expect(object["run"]?.count == 12)
            messages.append(object["message"] ?? "")
        }
        #expect(messages == ["step started", "step succeeded"])
    }

    @Test func aBadLogFormatIsAUsageError() throws {
        let work = try WorkDirectory()
        let result = try work.milepost.run("run", "--to", "1.1", "--log-format", "xml")
        #expect(result.status == 64, "\(result.stderr)")
    }
}
