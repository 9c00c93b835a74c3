import FoundationEssentials

/// A JSON value with its object keys in the order they were written, for schema documents a person
/// reads (`$schema` and `title` first, properties in declaration order).
indirect enum SchemaValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case array([SchemaValue])
    case object([(key: String, value: SchemaValue)])

    static func == (lhs: SchemaValue, rhs: SchemaValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    /// `{"type": "…"}`.
    static func type(_ name: String) -> SchemaValue { .object([("type", .string(name))]) }

    /// The value of `key` in an object.
    subscript(key: String) -> SchemaValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// An object with `value` under `key`, replacing the key's value or appending it.
    func setting(_ key: String, _ value: SchemaValue) -> SchemaValue {
        guard case .object(var pairs) = self else { return self }
        if let index = pairs.firstIndex(where: { $0.key == key }) {
            pairs[index].value = value
        } else {
            pairs.append((key, value))
        }
        return .object(pairs)
    }

    /// The schema that also accepts null: `null` joins its `type`, or it becomes one branch of an `anyOf`.
    var allowingNull: SchemaValue {
        switch self["type"] {
        case .string(let name): return setting("type", .array([.string(name), .string("null")]))
        case .array(let names): return names.contains(.string("null")) ? self : setting("type", .array(names + [.string("null")]))
        default: return .object([("anyOf", .array([self, .type("null")]))])
        }
    }

    /// Pretty-printed JSON, two spaces per level, keys in their order.
    var jsonText: String {
        var text = ""
        write(to: &text, indent: "")
        return text
    }

    private func write(to text: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .string(let string): text += Self.quoted(string)
        case .integer(let int): text += String(int)
        case .bool(let bool): text += bool ? "true" : "false"
        case .array(let elements):
            // Arrays of scalars (`type`, `required`, `enum`) stay on one line.
            if elements.allSatisfy(\.isScalar) {
                text += "[" + elements.map(\.jsonText).joined(separator: ", ") + "]"
                return
            }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                element.write(to: &text, indent: inner)
                text += index == elements.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let pairs):
            guard !pairs.isEmpty else { text += "{}"; return }
            text += "{\n"
            for (index, pair) in pairs.enumerated() {
                text += inner + Self.quoted(pair.key) + ": "
                pair.value.write(to: &text, indent: inner)
                text += index == pairs.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        }
    }

    private var isScalar: Bool {
        switch self {
        case .string, .integer, .bool: true
        case .array, .object: false
        }
    }

    private static func quoted(_ string: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // Encoding a String cannot fail.
        return String(decoding: (try? encoder.encode(string)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
