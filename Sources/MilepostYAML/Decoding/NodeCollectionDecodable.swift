/// Arrays and string-keyed dictionaries, decoded straight from a sequence's elements or a
/// mapping's pairs. Their own `init(from:)` runs unspecialised through boxed containers, paying
/// generic-metadata lookups and allocations per element; this reads the same values, with the same
/// coding paths and the same errors.
protocol NodeCollectionDecodable {
    /// The collection decoded from `node`, at `path`.
    static func decode(
        from node: YAMLNode?, at path: [any CodingKey], strings: YAMLNodeDecoder.StringTransform?
    ) throws -> Self
}

extension Array: NodeCollectionDecodable where Element: Decodable {
    static func decode(
        from node: YAMLNode?, at path: [any CodingKey], strings: YAMLNodeDecoder.StringTransform?
    ) throws -> Self {
        guard let node, node.kind == .sequence else {
            throw DecodingProblem.mismatch(expected: "a sequence", found: node, at: path)
        }
        let elements = node.elements
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for index in elements.indices {
            let elementPath = CodingPath.appending(IndexKey(index), to: path)
            result.append(try NodeDecoder.decode(Element.self, from: elements[index], at: elementPath, strings: strings))
        }
        return result
    }
}

extension Dictionary: NodeCollectionDecodable where Key == String, Value: Decodable {
    /// A null or absent node is an empty dictionary, as an empty keyed container is. Keys are
    /// scalars: the composer refuses any other.
    static func decode(
        from node: YAMLNode?, at path: [any CodingKey], strings: YAMLNodeDecoder.StringTransform?
    ) throws -> Self {
        guard let node, node.kind == .mapping else {
            if let node, !node.isNull { throw DecodingProblem.mismatch(expected: "a mapping", found: node, at: path) }
            return [:]
        }
        let count = node.pairCount
        var result: [String: Value] = [:]
        result.reserveCapacity(count)
        for index in 0..<count {
            let (key, value) = node.pair(index)
            let name = key.scalar ?? ""
            result[name] = try NodeDecoder.decode(Value.self, from: value, at: CodingPath.appending(NameKey(name), to: path), strings: strings)
        }
        return result
    }
}
