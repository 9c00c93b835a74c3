import Foundation
import Testing

/// docs/json-schema.json is the contract of `--format json`: every command's real output must match
/// it (here, and in every golden transcript), and docs/json.md must describe every field it declares.
@Suite struct JSONSchemaTests {
    @Test func everyCommandsOutputMatchesTheSchema() throws {
        let work = try WorkDirectory()
        try work.write(GoldenTests.demo, to: "milepost.yaml")
        let schema = try JSONSchema()
        _ = try work.milepost.run("run", "--to", "2.1")
        let outputs: [(command: String, arguments: [String])] = [
            ("validate", ["validate"]), ("plan", ["plan", "--to", "3.0"]),
            ("plans", ["plan", "--from", "1.0", "--from", "2.1", "--to", "3.0"]), ("run", ["run", "--to", "2.7"]),
            ("wait", ["wait", "--to", "2.7", "--timeout", "1s"]),
            ("status", ["status", "--to", "3.0"]), ("history", ["history"]), ("versions", ["versions"]),
            ("steps", ["steps"]), ("revert", ["revert", "--to", "2.7", "--dry-run"]),
            ("test", ["test", "--to", "2.7", "--from", "2.1", "--seed", "1", "--max-trials", "2"]),
        ]
        #expect(Set(outputs.map(\.command)) == Set(schema.commands))
        for (command, arguments) in outputs {
            let result = try work.milepost.run(arguments + ["--format", "json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(schema.problems(ofDocument: result.stdout, command: command) == [], "\(arguments)")
        }
    }

    @Test func theCheckerRejectsWhatTheSchemaForbids() throws {
        let schema = try JSONSchema()
        let problems = schema.problems(
            ofDocument: #"{"format": 3, "command": "steps", "steps": [{"name": "exec", "idempotent": "no"}], "extra": 1}"#,
            command: "steps")
        #expect(problems.sorted() == [
            "steps.format: expected 2, found 3",
            "steps.steps[0]: missing required 'parameters'",
            "steps.steps[0]: missing required 'resumable'",
            "steps.steps[0].idempotent: expected boolean, found \"no\"",
            "steps: undocumented property 'extra'",
        ].sorted())
    }

    @Test func jsonMarkdownDescribesEveryField() throws {
        let markdown = try String(contentsOf: JSONSchema.repository.appendingPathComponent("docs/json.md"), encoding: .utf8)
        let missing = try JSONSchema().propertyNames.filter { !markdown.contains("`\($0)`") && !markdown.contains("\"\($0)\"") }
        #expect(missing.sorted() == [], "docs/json.md does not mention these fields of docs/json-schema.json")
    }
}
