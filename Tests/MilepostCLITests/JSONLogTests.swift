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

    /// Under `--log-format json` every line of stderr is one JSON object: `run`'s text progress and
    /// summary, a step's stdout and stderr copied through Milepost (a last line without a newline
    /// included), a failure's error, and the pre-start fast path's answer (issue 25, item 15).
    @Test func everyLineOnStderrIsAJSONObject() throws {
        let work = try WorkDirectory()
        try work.write(GoldenTests.execSteps([
            (threshold: "1.1", id: "bar", command: "[sh, -c, 'echo to stdout; echo to stderr >&2; printf unended >&2']"),
            (threshold: "1.2", id: "breaks", command: "[sh, -c, 'echo boom >&2; exit 3']"),
        ]), to: "milepost.yaml")
        func objects(_ stderr: String) throws -> [[String: String]] {
            try stderr.split(separator: "\n").map { line in
                try #require(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "not one JSON object: \(line)")
            }
        }
        let failed = try work.milepost.run("run", "--to", "1.2", "--log-format", "json")
        #expect(failed.status == 1, "\(failed.stderr)")
        let lines = try objects(failed.stderr)
        let messages = lines.compactMap { $0["message"] }
        for expected in ["[1/2] 1.1/bar …", "to stdout", "to stderr", "unended", "boom"] {
            #expect(messages.contains(expected), "\(expected): \(messages)")
        }
        #expect(messages.contains { $0.hasPrefix("[2/2] 1.2/breaks FAILED") }, "\(messages)")
        #expect(lines.allSatisfy { $0["time"] != nil && $0["level"] != nil })
        #expect(!failed.stderr.contains("\u{1B}["))

        let invalid = try work.milepost.run("run", "--to", "1.2", "--log-format", "json", "--manifest", "missing.yaml")
        #expect(invalid.status == 66, "\(invalid.stderr)")
        #expect(try objects(invalid.stderr).contains { $0["level"] == "error" && $0["message"]?.contains("cannot read the manifest") == true })

        try work.write(GoldenTests.execSteps([(threshold: "1.1", id: "bar", command: "['true']")]), to: "milepost.yaml")
        #expect(try work.milepost.run("baseline", "1.1", "--store", "s").status == 0)
        let fast = try work.milepost.run("run", "--to", "1.1", "--store", "s", "--log-format", "json")
        #expect(fast.status == 0, "\(fast.stderr)")
        let answer = try objects(fast.stderr)
        #expect(answer.count == 1 && answer.first?["message"]?.hasSuffix("up to date at 1.1") == true, "\(fast.stderr)")
    }

    /// Every line of a step carries its `step` and `attempt` — the library's records, `run`'s
    /// progress lines and the step's own output — and the lines that say how an attempt ended its
    /// `outcome` (issue 43).
    @Test func stepLinesCarryTheStepTheAttemptAndTheOutcome() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.1":
                - {name: exec, id: flaky, retries: 1, with: {command: [sh, -c, 'echo attempt output; test -e once || { touch once; exit 1; }']}}
            """, to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "1.1", "--log-format", "json", "--log-level", "info")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stderr.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
        }
        func line(_ message: String, attempt: String) -> [String: String]? {
            lines.first { $0["message"]?.hasPrefix(message) == true && $0["attempt"] == attempt }
        }
        for attempt in ["1", "2"] {
            #expect(line("step started", attempt: attempt)?["step"] == "1.1/flaky", "\(lines)")
            #expect(line("attempt output", attempt: attempt)?["step"] == "1.1/flaky", "\(lines)")
        }
        #expect(line("[1/1] 1.1/flaky …", attempt: "1")?["step"] == "1.1/flaky", "\(lines)")
        #expect(line("step failed; retrying", attempt: "1")?["outcome"] == "failed", "\(lines)")
        #expect(line("step succeeded", attempt: "2")?["outcome"] == "succeeded", "\(lines)")
        #expect(line("[1/1] 1.1/flaky ok in", attempt: "2")?["outcome"] == "succeeded", "\(lines)")
        // After the step, the run's summary is nobody's step.
        let summary = try #require(lines.last)
        #expect(summary["message"]?.contains("1 step ran") == true && summary["step"] == nil, "\(summary)")
    }

    @Test func aBadLogFormatIsAUsageError() throws {
        let work = try WorkDirectory()
        let result = try work.milepost.run("run", "--to", "1.1", "--log-format", "xml")
        #expect(result.status == 64, "\(result.stderr)")
    }
}
