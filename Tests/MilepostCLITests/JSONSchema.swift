import Foundation

/// docs/json-schema.json, and a checker for the subset of JSON Schema (2020-12) it uses: `type`,
/// `const`, `enum`, `properties`, `required`, `additionalProperties: false`, `items`, local `$ref`s.
struct JSONSchema {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    let root: JSONValue

    init() throws {
        root = try JSONValue(parsing: String(contentsOf: Self.repository.appendingPathComponent("docs/json-schema.json"), encoding: .utf8))
    }

    /// The commands the schema describes a document for (the targets of its top-level `oneOf`).
    var commands: [String] {
        guard case .array(let choices)? = root["oneOf"] else { return [] }
        return choices.compactMap { $0["$ref"]?.string?.replacingOccurrences(of: "#/$defs/", with: "") }
    }

    /// The problems of `text` (a command's `--format json` output) against `$defs/<command>`.
    func problems(ofDocument text: String, command: String) -> [String] {
        guard let value = try? JSONValue(parsing: text) else { return ["\(command): stdout is not one JSON document: \(text)"] }
        return problems(of: value, against: .object(["$ref": .string("#/$defs/\(command)")]), at: command)
    }

    func problems(of value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        var schema = schema
        if let reference = schema["$ref"]?.string {
            guard reference.hasPrefix("#/$defs/"), let target = root["$defs"]?[String(reference.dropFirst(8))] else {
                return ["\(path): unresolvable \(reference)"]
            }
            schema = target
        }
        var found: [String] = []
        if let constant = schema["const"], constant != value { found.append("\(path): expected \(constant), found \(value)") }
        if case .array(let choices)? = schema["enum"], !choices.contains(value) {
            found.append("\(path): \(value) is not one of \(choices)")
        }
        if let type = schema["type"]?.string, !Self.value(value, is: type) {
            found.append("\(path): expected \(type), found \(value)")
        }
        if case .object(let members) = value {
            if case .array(let required)? = schema["required"] {
                for key in required.compactMap(\.string) where members[key] == nil {
                    found.append("\(path): missing required '\(key)'")
                }
            }
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                if let property = schema["properties"]?[key] {
                    found += problems(of: member, against: property, at: "\(path).\(key)")
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(path): undocumented property '\(key)'")
                }
            }
        }
        if case .array(let elements) = value, let items = schema["items"] {
            for (index, element) in elements.enumerated() {
                found += problems(of: element, against: items, at: "\(path)[\(index)]")
            }
        }
        return found
    }

    /// Every property name the schema declares anywhere.
    var propertyNames: Set<String> {
        var names = Set<String>()
        func walk(_ node: JSONValue) {
            switch node {
            case .object(let members):
                if case .object(let properties)? = members["properties"] { names.formUnion(properties.keys) }
                members.values.forEach(walk)
            case .array(let elements): elements.forEach(walk)
            default: break
            }
        }
        walk(root)
        return names
    }

    private static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("integer", .integer): true
        default: false
        }
    }
}
