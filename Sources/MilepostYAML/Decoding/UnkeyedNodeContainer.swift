/// An unkeyed container over a sequence's elements.
struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0
    private let sequence: YAMLNode
    private let elements: YAMLNode.Elements
    private let owner: NodeDecoder

    init(node: YAMLNode?, codingPath: [any CodingKey], owner: NodeDecoder) throws {
        guard let node, node.kind == .sequence else {
            throw DecodingProblem.mismatch(expected: "a sequence", found: node, at: codingPath)
        }
        self.sequence = node
        self.elements = node.elements
        self.codingPath = codingPath
        self.owner = owner
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    // MARK: - Values

    mutating func decodeNil() throws -> Bool {
        guard try next(expected: "null").isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let element = try next(expected: DecodingProblem.expected(type))
        let value = try NodeDecoder.decode(type, from: element, at: elementPath, strings: owner.strings)
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(type, ()) }
    mutating func decode(_ type: String.Type) throws -> String { try decode(type, ()) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decode(type, ()) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decode(type, ()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decode(type, ()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(type, ()) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(type, ()) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(type, ()) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(type, ()) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(type, ()) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(type, ()) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(type, ()) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(type, ()) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(type, ()) }

    /// Routes the primitive requirements to the generic one.
    private mutating func decode<T: Decodable>(_ type: T.Type, _: Void) throws -> T {
        try decode(type)
    }

    // MARK: - Nested containers

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let element = try next(expected: "a mapping")
        let container = try KeyedNodeContainer<NestedKey>(node: element, codingPath: elementPath.keys, owner: owner)
        currentIndex += 1
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try next(expected: "a sequence")
        let container = try UnkeyedNodeContainer(node: element, codingPath: elementPath.keys, owner: owner)
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let element = try next(expected: "a value")
        let decoder = NodeDecoder(node: element, codingPath: elementPath.keys, strings: owner.strings)
        currentIndex += 1
        return decoder
    }

    // MARK: - Position

    private var elementPath: CodingPath { CodingPath(IndexKey(currentIndex), after: codingPath) }

    /// The current element; `expected` is worded only when there is none.
    private func next(expected: @autoclosure () -> String) throws -> YAMLNode {
        guard !isAtEnd else {
            throw DecodingProblem.endOfSequence(sequence, expected: expected(), at: elementPath.keys)
        }
        return elements[currentIndex]
    }
}
