import Foundation
import Testing

/// `milepost schema`, checked with a real JSON Schema validator: it is a valid draft 2020-12 schema,
/// it accepts the project's manifests and rejects the broken ones `validate` rejects.
@Suite struct ManifestSchemaTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The schema of the stock binary, written to `schema.json` in `work`.
    func writeSchema(in work: WorkDirectory) throws -> String {
        let result = try MilepostBinary(directory: work.path).run("schema")
        #expect(result.status == 0, "\(result.stderr)")
        try work.write(result.stdout, to: "schema.json")
        return work.path + "/schema.json"
    }

    @Test(.enabled(if: SchemaValidator.isConfigured, SchemaValidator.missing)) func isAValidDraft2020Schema() throws {
        let validator = try SchemaValidator()
        let work = try WorkDirectory()
        let schema = try writeSchema(in: work)
        let result = try validator.check(["--check-metaschema", schema])
        #expect(result.status == 0, "\(result.output)")
        let text = try String(contentsOfFile: schema, encoding: .utf8)
        #expect(text.contains(#""$schema": "https://json-schema.org/draft/2020-12/schema""#))
        #expect(text.contains(#""enum": ["exec", "mysql", "sql", "sqlite"]"#))
    }

    @Test func describesEachStepsParametersFromItsType() throws {
        let work = try WorkDirectory()
        let schema = try JSONValue(parsing: try String(contentsOfFile: writeSchema(in: work), encoding: .utf8))
        guard case .array(let branches)? = schema["$defs"]?["stepEntry"]?["allOf"] else {
            Issue.record("no allOf in stepEntry")
            return
        }
        func with(_ name: String) -> JSONValue? {
            branches.first { $0["if"]?["properties"]?["name"]?["const"]?.string == name }?["then"]?["properties"]?["with"]
        }
        let exec = try #require(with("exec"))
        #expect(exec["required"] == .array([.string("command")]))
        #expect(exec["additionalProperties"] == .bool(false))
        #expect(exec["properties"]?["command"]?["type"] == .string("array"))
        #expect(exec["properties"]?["env"]?["additionalProperties"] != nil)
        #expect(exec["description"]?.string?.hasPrefix("Run a program") == true)
        let sql = try #require(with("sql"))
        #expect(sql["properties"]?["transaction"]?["type"] == .array([.string("boolean"), .string("null")]))
        #expect(sql["required"] == nil)
    }

    @Test(.enabled(if: SchemaValidator.isConfigured, SchemaValidator.missing)) func acceptsEveryManifestOfTheProject() throws {
        let validator = try SchemaValidator()
        let work = try WorkDirectory()
        let schema = try writeSchema(in: work)
        let manifests = ["manifests/example.yaml", "manifests/reference.yaml", "fuzz/corpus/manifest/valid-minimal.yaml"]
        for manifest in manifests {
            let path = Self.repository.appendingPathComponent(manifest).path
            let validate = try MilepostBinary(directory: work.path).run("validate", "--manifest", path)
            #expect(validate.status == 0, "\(manifest): \(validate.stderr)")
            // As the YAML language server sees it: thresholds as written.
            let json = try ManifestJSON.of(yaml: try String(contentsOfFile: path, encoding: .utf8))
            try work.write(json, to: "instance.json")
            let result = try validator.validate(work.path + "/instance.json", against: schema)
            #expect(result.status == 0, "\(manifest): \(result.output)")
        }
        // And the YAML files themselves, through check-jsonschema's own YAML parser (ruamel: unquoted
        // `2.1:` and `2.10:` would be one float key twice).
        for manifest in ["manifests/example.yaml", "manifests/reference.yaml"] {
            let result = try validator.validate(Self.repository.appendingPathComponent(manifest).path, against: schema)
            #expect(result.status == 0, "\(manifest): \(result.output)")
        }
    }

    /// Manifests `validate` rejects for what a schema can express.
    static let broken: [(String, String)] = [
        ("unknown top-level key", "migration:\n  2.1: [exec]\n"),
        ("no migrations", "app: demo\n"),
        ("threshold not a version", "migrations:\n  next:\n    - name: exec\n      with: {command: [\"true\"]}\n"),
        ("empty step list", "migrations:\n  \"2.1\": []\n"),
        ("unknown short-form step", "migrations:\n  \"2.1\":\n    - exce\n"),
        ("unknown long-form step", "migrations:\n  \"2.1\":\n    - name: exce\n"),
        ("unknown step key", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {command: [\"true\"]}\n      retry: 2\n"),
        ("bad timeout", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {command: [\"true\"]}\n      timeout: 5 minutes\n"),
        ("negative retries", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {command: [\"true\"]}\n      retries: -1\n"),
        ("quoted idempotent", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {command: [\"true\"]}\n      idempotent: \"yes\"\n"),
        ("exec without command", "migrations:\n  \"2.1\":\n    - name: exec\n"),
        ("exec parameter typo", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {commands: [\"true\"]}\n"),
        ("exec command not a list", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {command: {program: sh}}\n"),
        ("sql transaction not a boolean", "migrations:\n  \"2.1\":\n    - name: sql\n      with: {sql: select 1, transaction: maybe}\n"),
        ("bad baseline", "baseline: two\nmigrations:\n  \"2.1\": [exec]\n"),
        ("unknown hook phase", "hooks:\n  before_runs:\n    - name: exec\n      with: {command: [\"true\"]}\nmigrations:\n  \"2.1\": [exec]\n"),
        ("revert neither parameters nor none", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {command: [\"true\"]}\n      revert: nothing\n"),
        ("bad repeat", "migrations:\n  \"2.1\":\n    - name: exec\n      with: {command: [\"true\"]}\n      repeat: always\n"),
    ]

    @Test(.enabled(if: SchemaValidator.isConfigured, SchemaValidator.missing)) func rejectsBrokenManifestsValidateRejects() throws {
        let validator = try SchemaValidator()
        let work = try WorkDirectory()
        let schema = try writeSchema(in: work)
        for (problem, text) in Self.broken {
            try work.write(text, to: "milepost.yaml")
            let validate = try MilepostBinary(directory: work.path).run("validate")
            #expect(validate.status == 65, "validate accepted: \(problem)")
            let result = try validator.validate(work.path + "/milepost.yaml", against: schema)
            #expect(result.status == 1, "the schema accepted: \(problem)\n\(result.output)")
        }
    }
}
