import FoundationEssentials

/// Learns the shape of a `Decodable` parameter type by decoding it from nothing: a `Decoder` that
/// answers every request with a placeholder and records what was asked for (Swift has no runtime
/// reflection of `Decodable`). Keys read with `decode` are required, keys read with
/// `decodeIfPresent`, or checked with `contains` or `decodeNil` first, are optional.
///
/// The scalar types decode as `YAMLNodeDecoder` reads them: `String` from any non-null scalar (so
/// the schema also allows numbers and booleans), `Bool`, integers and floating-point numbers from
/// their core-schema values, `Duration` from `250ms`/`30s`/`1h30m`/`1.5h`, `Version` from its text.
///
/// A type whose `init(from:)` throws after reading its keys (a check across keys, as `sql`'s
/// "either `sql` or `file`") keeps what it read. A nested value whose initializer throws on the
/// placeholder cuts its container short: that object's schema then accepts keys it never saw.
enum ParameterProbe {
    /// The JSON Schema of `type` as a step's `with:` mapping.
    static func schema(of type: any Decodable.Type) -> SchemaValue {
        let shape = ProbedShape()
        _ = try? decodeAny(type, into: shape, at: [])
        return shape.schema
    }

    private static func decodeAny(_ type: any Decodable.Type, into shape: ProbedShape, at path: [any CodingKey]) throws {
        func open<T: Decodable>(_ type: T.Type) throws { _ = try value(type, into: shape, at: path) }
        try open(type)
    }

    /// A value of `type` for the probed decode to go on with, its shape recorded in `shape`.
    static func value<T: Decodable>(_ type: T.Type, into shape: ProbedShape, at path: [any CodingKey]) throws -> T {
        if let scalar = ScalarPlaceholder.of(type) {
            shape.scalar = scalar.schema
            return scalar.value as! T  // `ScalarPlaceholder.of` returns a value of `type`
        }
        do {
            return try T(from: ProbeDecoder(shape: shape, codingPath: path))
        } catch {
            shape.isCutShort = true
            throw error
        }
    }
}

/// What a probed value asked for: a scalar, a mapping with known keys, a mapping of any keys, or a list.
final class ProbedShape {
    var scalar: SchemaValue?
    var isKeyed = false
    var properties: [(key: String, shape: ProbedShape, required: Bool)] = []
    var mapValue: ProbedShape?
    var element: ProbedShape?
    var isNullable = false
    var isCutShort = false

    /// The shape under `key`, recorded as required unless it was first asked for as optional.
    func property(_ key: String, required: Bool) -> ProbedShape {
        if let index = properties.firstIndex(where: { $0.key == key }) {
            return properties[index].shape
        }
        let shape = ProbedShape()
        properties.append((key, shape, required))
        return shape
    }

    var schema: SchemaValue {
        let base: SchemaValue
        if let scalar {
            base = scalar
        } else if let mapValue {
            base = .object([("type", .string("object")), ("additionalProperties", mapValue.schema)])
        } else if isKeyed {
            var pairs: [(key: String, value: SchemaValue)] = [("type", .string("object"))]
            pairs.append(("properties", .object(properties.map { property in
                (property.key, property.required ? property.shape.schema : property.shape.schema.allowingNull)
            })))
            let required = properties.filter(\.required).map { SchemaValue.string($0.key) }
            if !required.isEmpty { pairs.append(("required", .array(required))) }
            if !isCutShort { pairs.append(("additionalProperties", .bool(false))) }
            base = .object(pairs)
        } else if let element {
            base = .object([("type", .string("array")), ("items", element.schema)])
        } else {
            base = .object([])
        }
        return isNullable ? base.allowingNull : base
    }
}

/// The placeholder and the schema of each type decoded straight from a scalar.
private struct ScalarPlaceholder {
    var value: Any
    var schema: SchemaValue

    /// Any non-null scalar's text.
    static let text = SchemaValue.object([("type", .array([.string("string"), .string("number"), .string("boolean")]))])

    static func of<T>(_ type: T.Type) -> ScalarPlaceholder? {
        switch type {
        case is String.Type: ScalarPlaceholder(value: "0", schema: text)
        case is Bool.Type: ScalarPlaceholder(value: false, schema: .type("boolean"))
        case is Duration.Type:
            ScalarPlaceholder(value: Duration.seconds(1), schema: .object([
                ("type", .string("string")), ("pattern", .string(ManifestSchema.durationPattern)),
                ("description", .string("numbers with units ms, s, m, h, d: 250ms, 30s, 1h30m, 1.5h")),
            ]))
        case is Version.Type:
            ScalarPlaceholder(value: Version.zero, schema: ManifestSchema.versionSchema)
        case is URL.Type:
            ScalarPlaceholder(value: URL(fileURLWithPath: "/"), schema: .type("string"))
        case let integer as any FixedWidthInteger.Type:
            ScalarPlaceholder(value: integer.init(0), schema: integer.isSigned
                ? .type("integer") : .object([("type", .string("integer")), ("minimum", .integer(0))]))
        case let number as any BinaryFloatingPoint.Type: ScalarPlaceholder(value: number.init(0), schema: .type("number"))
        default: nil
        }
    }
}

private struct ProbeDecoder: Decoder {
    let shape: ProbedShape
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        shape.isKeyed = true
        return KeyedDecodingContainer(KeyedProbe<Key>(shape: shape, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedProbe(shape: shape, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueProbe(shape: shape, codingPath: codingPath)
    }
}

private struct KeyedProbe<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let shape: ProbedShape
    let codingPath: [any CodingKey]

    /// A dictionary (its key type takes any string) asks for every key: it gets one, `name`, whose
    /// value stands for all the values. A type with fixed keys gets none.
    var allKeys: [Key] {
        guard Key(stringValue: "\u{1}any key") != nil, let key = Key(stringValue: "name") else { return [] }
        if shape.properties.isEmpty, shape.mapValue == nil { shape.mapValue = ProbedShape() }
        return [key]
    }

    private func child(_ key: Key, required: Bool) -> ProbedShape {
        if let mapValue = shape.mapValue { return mapValue }
        return shape.property(key.stringValue, required: required)
    }

    func contains(_ key: Key) -> Bool {
        _ = child(key, required: false)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        _ = child(key, required: false)
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ParameterProbe.value(type, into: child(key, required: true), at: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        // Optional: a nested value that cannot be built from placeholders is simply absent.
        try? ParameterProbe.value(type, into: child(key, required: false), at: codingPath + [key])
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key) }

    /// Routes the primitive requirements to the generic one.
    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T { try decode(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ProbeDecoder(shape: child(key, required: true), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        UnkeyedProbe(shape: child(key, required: true), codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { ProbeDecoder(shape: shape, codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ProbeDecoder(shape: child(key, required: true), codingPath: codingPath + [key])
    }
}

/// A list probed with one element, whose shape stands for every element.
private struct UnkeyedProbe: UnkeyedDecodingContainer {
    let shape: ProbedShape
    let codingPath: [any CodingKey]
    var count: Int? { 1 }
    private(set) var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(shape: ProbedShape, codingPath: [any CodingKey]) {
        self.shape = shape
        self.codingPath = codingPath
        if shape.element == nil { shape.element = ProbedShape() }
    }

    private var element: ProbedShape { shape.element! }  // set in init

    mutating func decodeNil() throws -> Bool {
        element.isNullable = true
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try ParameterProbe.value(type, into: element, at: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return try ProbeDecoder(shape: element, codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return UnkeyedProbe(shape: element, codingPath: codingPath)
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return ProbeDecoder(shape: element, codingPath: codingPath)
    }
}

private struct SingleValueProbe: SingleValueDecodingContainer {
    let shape: ProbedShape
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        shape.isNullable = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ParameterProbe.value(type, into: shape, at: codingPath)
    }
}
