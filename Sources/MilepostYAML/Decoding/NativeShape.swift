import Synchronization

/// How the decoder reads a type it is asked for, found once per type: casting to
/// `any FixedWidthInteger.Type` or `any NodeCollectionDecodable.Type` is a conformance lookup in
/// the runtime, which every value decoded (parameters, arrays, dictionaries, their elements)
/// would otherwise pay each time.
enum NativeShape: Sendable {
    /// An integer or floating-point type: decoded from the scalar's core-schema value.
    case numeric
    /// An array or a string-keyed dictionary: decoded from the node's children (`NodeCollectionDecodable`).
    case collection
    /// Anything else: decoded by its `init(from:)` (or natively by `ScalarDecoding`).
    case structured

    /// Searched in order: a program decodes a few dozen types at most, and comparing them costs
    /// less than hashing one.
    private static let known = Mutex<[(type: ObjectIdentifier, shape: NativeShape)]>([])

    static func of(_ type: Any.Type) -> NativeShape {
        let key = ObjectIdentifier(type)
        if let shape = known.withLock({ known in known.first { $0.type == key }?.shape }) { return shape }
        let shape: NativeShape =
            if type is any FixedWidthInteger.Type || type is any BinaryFloatingPoint.Type { .numeric }
            else if type is any NodeCollectionDecodable.Type { .collection }
            else { .structured }
        known.withLock { known in
            if !known.contains(where: { $0.type == key }) { known.append((key, shape)) }
        }
        return shape
    }
}
