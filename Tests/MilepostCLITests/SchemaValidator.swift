import Foundation
import MilepostYAML
import Testing

/// PyPI's `check-jsonschema`, the real validator the generated schema is checked with. Found through
/// `MILEPOST_CHECK_JSONSCHEMA` (the path of the executable). Locally, without it, the tests that need
/// it are disabled with that reason, as the PostgreSQL tests are without a server; `.ci/run` installs
/// it into its venv and fails when a test run reports them disabled.
struct SchemaValidator {
    static let path = ProcessInfo.processInfo.environment["MILEPOST_CHECK_JSONSCHEMA"] ?? ""
    static let isConfigured = !path.isEmpty
    static let missing: Comment = """
        MILEPOST_CHECK_JSONSCHEMA is not set; point it at check-jsonschema \
        (python3 -m venv /tmp/venv && /tmp/venv/bin/pip install check-jsonschema)
        """

    let executable: String

    init() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.path), "MILEPOST_CHECK_JSONSCHEMA=\(Self.path) is not executable")
        executable = Self.path
    }

    /// Runs check-jsonschema with `arguments`; its exit status and output.
    func check(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try CombinedOutput.run(executable, ["--no-cache"] + arguments)
    }

    /// Validates `instance` (a file) against `schema` (a file).
    func validate(_ instance: String, against schema: String) throws -> (status: Int32, output: String) {
        try check(["--schemafile", schema, instance])
    }
}

/// A manifest as JSON, keys as written and values as the YAML 1.2 core schema reads them: what the
/// YAML language server checks. (check-jsonschema itself loads YAML keys as values, so `2.1` and
/// `2.10` collide as the float 2.1 in its parser; the JSON form keeps them apart as Milepost does.)
enum ManifestJSON {
    static func of(yaml text: String) throws -> String {
        let document = try YAMLDocument.parse(Array(text.utf8))
        let object = document.root.map(value) ?? NSNull()
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]), as: UTF8.self)
    }

    private static func value(_ node: YAMLNode) -> Any {
        switch node.kind {
        case .mapping:
            return Dictionary(node.pairs.map { ($0.key.scalar ?? "", value($0.value)) }, uniquingKeysWith: { first, _ in first })
        case .sequence:
            return node.elements.map(value)
        case .scalar:
            switch node.coreValue {
            case .null, nil: return NSNull()
            case .bool(let bool): return bool
            case .int(let int): return int
            case .float(let double): return double
            case .string(let string): return string
            }
        }
    }
}
