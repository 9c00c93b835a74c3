import MilepostSystem

/// The wording of decoding errors: `'with.batch': expected an integer, found the string "abc"`.
enum DecodingProblem {
    // MARK: - Paths

    /// `with.batch`, `steps[2].name`; empty for the root.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key as? IndexKey {
                text += "[\(index.index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// `'with.batch': ` before a message, or nothing at the root.
    static func prefix(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "" : "'\(render(path))': "
    }

    // MARK: - Errors

    static func mismatch(expected: String, found node: YAMLNode?, at path: [any CodingKey]) -> YAMLError {
        YAMLError("\(prefix(path))expected \(expected), found \(describe(node))", at: node?.location, notes: node?.useNotes ?? [])
    }

    static func missingKey(_ key: String, expected: String, in mapping: YAMLNode?, at path: [any CodingKey]) -> YAMLError {
        YAMLError("\(prefix(path))missing key '\(key)', expected \(expected)", at: mapping?.location, notes: mapping?.useNotes ?? [])
    }

    static func unknownKey(_ key: YAMLNode, suggestion: String?, at path: [any CodingKey]) -> YAMLError {
        YAMLError(
            "\(prefix(path))unknown parameter '\(key.scalar ?? "")'", at: key.location,
            notes: (suggestion.map { [YAMLError.Note("did you mean '\($0)'?")] } ?? []) + key.useNotes)
    }

    static func endOfSequence(_ sequence: YAMLNode, expected: String, at path: [any CodingKey]) -> YAMLError {
        YAMLError("\(prefix(path))the sequence has no more elements, expected \(expected)", at: sequence.location, notes: sequence.useNotes)
    }

    /// An error thrown by a type's own `init(from:)`, located at the node it was decoding, or for a
    /// `NestedValueError`, at the value under that node it names.
    static func located(_ error: any Error, node: YAMLNode?, at path: [any CodingKey]) -> YAMLError {
        if let error = error as? YAMLError { return error }
        if let nested = error as? NestedValueError, let value = nested.value(under: node) {
            return YAMLError(prefix(nested.codingPath(after: path)) + nested.message, at: value.location, notes: value.useNotes)
        }
        // The node's path, not the error's: a type's own error says what is wrong, the node where.
        let description = (error as? DecodingError)?.context?.debugDescription ?? String(describing: error)
        return YAMLError(prefix(path) + description, at: node?.location, notes: node?.useNotes ?? [])
    }

    // MARK: - Descriptions

    /// What a node is, for "found …": `the string "abc"`, `the quoted string "500"`, `a mapping`.
    static func describe(_ node: YAMLNode?) -> String {
        guard let node else { return "nothing" }
        switch node.kind {
        case .sequence: return "a sequence"
        case .mapping: return "a mapping"
        case .scalar: break
        }
        let text = excerpt(node.scalar ?? "")
        switch node.scalarStyle {
        case .singleQuoted?, .doubleQuoted?: return "the quoted string \(text)"
        case .literal?, .folded?: return "the block string \(text)"
        default: break
        }
        switch node.core {
        case .null: return "null"
        case .bool: return "the boolean \(node.scalar ?? "")"
        case .int, .bigInt: return "the integer \(node.scalar ?? "")"
        case .float: return "the number \(node.scalar ?? "")"
        case .string: return "the string \(text)"
        }
    }

    private static func excerpt(_ text: String) -> String {
        let limit = 40
        guard text.unicodeScalars.count > limit else { return YAMLNode.quoted(text) }
        return YAMLNode.quoted(String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))) + "…"
    }

    /// What a type expects, for "expected …": `a string`, `an integer`, `a sequence`.
    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Duration.Type: "a duration (250ms, 30s, 1h30m, 1.5h)"
        case is any FixedWidthInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        case is any SequenceShaped.Type: "a sequence"
        case is any MappingShaped.Type: "a mapping"
        case let optional as any OptionalShaped.Type: expected(optional.wrappedType)
        default: "a value of type \(type)"
        }
    }
}

// MARK: - Shapes of standard types

protocol SequenceShaped {}
extension Array: SequenceShaped {}
extension ContiguousArray: SequenceShaped {}
extension Set: SequenceShaped {}

protocol MappingShaped {}
extension Dictionary: MappingShaped {}

protocol OptionalShaped {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalShaped {
    static var wrappedType: Any.Type { Wrapped.self }
}

/// The coding key of a sequence element, rendered `[index]`.
struct IndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(intValue: Int) { self.index = intValue }
    init?(stringValue: String) { nil }
    var intValue: Int? { index }
    var stringValue: String { "Index \(index)" }
}

/// A coding key for a name no `CodingKeys` enum knows (`super`).
struct NameKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    var intValue: Int? { nil }
}
