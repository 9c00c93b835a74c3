/// A keyed container over a mapping (a null or absent node reads as an empty mapping).
/// Every key asked for, found or not, is noted for the unknown-key check (`KeyUsage`).
struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    private let mapping: YAMLNode?
    private let usage: KeyUsage?
    private let owner: NodeDecoder

    init(node: YAMLNode?, codingPath: [any CodingKey], owner: NodeDecoder) throws {
        self.codingPath = codingPath
        self.owner = owner
        switch node {
        case let node? where node.kind == .mapping:
            mapping = node
            usage = owner.usage(of: node, at: codingPath)
        case let node? where !node.isNull:
            throw DecodingProblem.mismatch(expected: "a mapping", found: node, at: codingPath)
        default:
            (mapping, usage) = (node, nil)
        }
    }

    /// A plain loop: this runs unspecialised (`Dictionary`'s `init(from:)` asks for it through a
    /// box), where `pairs` and `compactMap` cost an array and generic iteration more per key.
    var allKeys: [Key] {
        guard let mapping else { return [] }
        var keys: [Key] = []
        let pairs = mapping.pairs
        keys.reserveCapacity(pairs.count)
        for pair in pairs.indices {
            if let key = pairs[pair].key.scalar.flatMap(Key.init(stringValue:)) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        value(at: key) != nil
    }

    // MARK: - Values

    func decodeNil(forKey key: Key) throws -> Bool {
        value(at: key)?.isNull ?? true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try require(key, expected: DecodingProblem.expected(type))
        return try NodeDecoder.decode(type, from: value, at: CodingPath(key, after: codingPath), strings: owner.strings)
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
    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    /// One lookup: the protocol's default asks `contains`, `decodeNil` and `decode` in turn.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = value(at: key), !value.isNull else { return nil }
        return try NodeDecoder.decode(type, from: value, at: CodingPath(key, after: codingPath), strings: owner.strings)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type, key) }

    /// Routes the primitive requirements to the generic one.
    private func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }

    // MARK: - Nested containers

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let value = try require(key, expected: "a mapping")
        return KeyedDecodingContainer(
            try KeyedNodeContainer<NestedKey>(node: value, codingPath: CodingPath(key, after: codingPath).keys, owner: owner))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try require(key, expected: "a sequence")
        return try UnkeyedNodeContainer(node: value, codingPath: CodingPath(key, after: codingPath).keys, owner: owner)
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(named: NameKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(named: key)
    }

    private func superDecoder(named key: any CodingKey) throws -> any Decoder {
        NodeDecoder(node: usage?.value(at: key.stringValue), codingPath: CodingPath(key, after: codingPath).keys, strings: owner.strings)
    }

    // MARK: - Lookup

    /// The value at `key`, noted as asked for.
    private func value(at key: Key) -> YAMLNode? {
        usage?.value(at: key.stringValue)
    }

    /// The value at `key`; a missing key that looks misspelled in the mapping is reported as that
    /// unknown key ("did you mean …?"), any other as missing. `expected` is worded only then.
    private func require(_ key: Key, expected: @autoclosure () -> String) throws -> YAMLNode {
        if let value = value(at: key) { return value }
        if let usage, let misspelled = usage.unrequestedKey(near: key.stringValue) {
            throw usage.unknownKeyError(misspelled)
        }
        throw DecodingProblem.missingKey(key.stringValue, expected: expected(), in: mapping, at: codingPath)
    }
}
