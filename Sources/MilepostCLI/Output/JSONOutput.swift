import FoundationEssentials

/// Every `--format json` document: one object on stdout with `format` (the schema version, see
/// docs/json.md) and `command` (or a list of such objects: `plan` with several `--from`).
enum JSONOutput {
    static let format = 2

    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        Terminal.out(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
