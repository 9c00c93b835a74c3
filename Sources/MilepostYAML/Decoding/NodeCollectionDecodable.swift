/// Arrays and string-keyed dictionaries, decoded straight from a sequence's elements or a
/// mapping's pairs. Their own `init(from:)` runs unspecialised through boxed containers, paying
/// generic-metadata lookups and allocations per element; this reads the same values, with the same
/// coding paths and the same errors.
protocol NodeCollectionDecodable: SendableMetatype {
    /// The collection decoded from `node`, at `path`.
    static func decode(
        from node: YAMLNode?, at path: CodingPath, strings: YAMLNodeDecoder.StringTransform?
    ) throws -> Self
}

extension NodeCollectionDecodable {
    /// `decode`, as `T`, which the caller knows is `Self` (it found `Self` as `T`'s collection type):
    /// `as! T` on the result would cast it through an existential, a box and a dynamic cast per value.
    static func decode<T>(
        as _: T.Type, from node: YAMLNode?, at path: CodingPath, strings: YAMLNodeDecoder.StringTransform?
    ) throws -> T {
        unsafeBitCast(try decode(from: node, at: path, strings: strings), to: T.self)
    }
}

extension Array: NodeCollectionDecodable where Element: Decodable {
    static func decode(
        from node: YAMLNode?, at path: CodingPath, strings: YAMLNodeDecoder.StringTransform?
    ) throws -> Self {
        // Strings, the commonest elements, through a copy of the loop specialised for them:
        // unspecialised, each paid a generic decode and append (issue 32, docs/performance.md).
        if Element.self == String.self {
            let texts: [String] = try elements(from: node, at: path) { try ScalarDecoding.string($0, at: $1, strings: strings) }
            // `Self` is `[String]`: `as!` would copy the array element by element to find that out.
            return unsafeBitCast(texts, to: Self.self)
        }
        return try elements(from: node, at: path) { try NodeDecoder.decode(Element.self, from: $0, at: $1, strings: strings) }
    }
}

extension Dictionary: NodeCollectionDecodable where Key == String, Value: Decodable {
    static func decode(
        from node: YAMLNode?, at path: CodingPath, strings: YAMLNodeDecoder.StringTransform?
    ) throws -> Self {
        // As for arrays: string values through a specialised copy of the loop.
        if Value.self == String.self {
            let texts: [String: String] = try pairs(from: node, at: path) { try ScalarDecoding.string($0, at: $1, strings: strings) }
            return unsafeBitCast(texts, to: Self.self)
        }
        return try pairs(from: node, at: path) { try NodeDecoder.decode(Value.self, from: $0, at: $1, strings: strings) }
    }
}

/// The elements of a sequence, each decoded by `element` at its own path.
private func elements<Element>(
    from node: YAMLNode?, at path: CodingPath, _ element: (YAMLNode, CodingPath) throws -> Element
) throws -> [Element] {
    guard let node, node.kind == .sequence else {
        throw DecodingProblem.mismatch(expected: "a sequence", found: node, at: path.keys)
    }
    let path = path.keys
    let elements = node.elements
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for index in elements.indices {
        result.append(try element(elements[index], CodingPath(IndexKey(index), after: path)))
    }
    return result
}

/// The pairs of a mapping, each value decoded by `decode` at its own path. A null or absent node is
/// an empty dictionary, as an empty keyed container is. Keys are scalars: the composer refuses any other.
private func pairs<Value>(
    from node: YAMLNode?, at path: CodingPath, _ decode: (YAMLNode, CodingPath) throws -> Value
) throws -> [String: Value] {
    guard let node, node.kind == .mapping else {
        if let node, !node.isNull { throw DecodingProblem.mismatch(expected: "a mapping", found: node, at: path.keys) }
        return [:]
    }
    let path = path.keys
    let pairs = node.pairs
    var result: [String: Value] = [:]
    result.reserveCapacity(pairs.count)
    for (key, value) in pairs {
        let name = key.scalar ?? ""
        result[name] = try decode(value, CodingPath(NameKey(name), after: path))
    }
    return result
}
