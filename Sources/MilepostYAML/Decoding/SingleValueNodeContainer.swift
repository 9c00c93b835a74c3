/// A single-value container: its decoder's node. It holds only the decoder, so that it fits in
/// the inline buffer of `any SingleValueDecodingContainer` instead of a box allocated per value.
struct SingleValueNodeContainer: SingleValueDecodingContainer {
    let owner: NodeDecoder

    var codingPath: [any CodingKey] { owner.codingPath }

    func decodeNil() -> Bool { owner.node?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try NodeDecoder.decode(type, from: owner.node, at: CodingPath(owner.codingPath), strings: owner.strings)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decode(type, ()) }
    func decode(_ type: String.Type) throws -> String { try decode(type, ()) }
    func decode(_ type: Double.Type) throws -> Double { try decode(type, ()) }
    func decode(_ type: Float.Type) throws -> Float { try decode(type, ()) }
    func decode(_ type: Int.Type) throws -> Int { try decode(type, ()) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decode(type, ()) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decode(type, ()) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(type, ()) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(type, ()) }
    func decode(_ type: UInt.Type) throws -> UInt { try decode(type, ()) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(type, ()) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(type, ()) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(type, ()) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(type, ()) }

    /// Routes the primitive requirements to the generic one.
    private func decode<T: Decodable>(_ type: T.Type, _: Void) throws -> T {
        try decode(type)
    }
}
