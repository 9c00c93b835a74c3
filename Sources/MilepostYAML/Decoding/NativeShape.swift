import MilepostSystem
import Synchronization

/// How the decoder reads a type it is asked for, found once per type: casting to
/// `any FixedWidthInteger.Type` or `any NodeCollectionDecodable.Type` is a conformance lookup in
/// the runtime, which every value decoded (parameters, arrays, dictionaries, their elements)
/// would otherwise pay each time.
enum NativeShape: UInt8, Sendable {
    /// An integer or floating-point type: decoded from the scalar's core-schema value.
    case numeric
    /// An array or a string-keyed dictionary: decoded from the node's children (`NodeCollectionDecodable`).
    case collection
    /// Anything else: decoded by its `init(from:)` (or natively by `ScalarDecoding`).
    case structured

    /// The shape of `type`, worked out once per type.
    static func of(_ type: Any.Type) -> NativeShape {
        // The memo holds only raw values of this enum.
        NativeShape(rawValue: shapes(type)).unsafelyUnwrapped
    }

    /// `type` as the collection type it is, for a type whose shape is `.collection`; worked out
    /// once per type, as the shape is: the cast is a conformance lookup in the runtime, which every
    /// array and dictionary decoded would pay (issue 32, docs/performance.md).
    static func collectionType(_ type: Any.Type) -> any NodeCollectionDecodable.Type {
        let key = ObjectIdentifier(type)
        if let known = collectionTypes.withLock({ $0.first { $0.key == key }?.type }) { return known }
        // The shape is `.collection` only for a type that passes this cast.
        let collection = (type as? any NodeCollectionDecodable.Type).unsafelyUnwrapped
        collectionTypes.withLock { known in
            if !known.contains(where: { $0.key == key }) { known.append((key, collection)) }
        }
        return collection
    }

    /// The collection types met so far. Searched in order, as `PerTypeMemo` is: a program decodes
    /// a few dozen types at most.
    private static let collectionTypes = Mutex<[(key: ObjectIdentifier, type: any NodeCollectionDecodable.Type)]>([])

    private static let shapes = PerTypeMemo { type in
        let shape: NativeShape =
            if type is any FixedWidthInteger.Type || type is any BinaryFloatingPoint.Type { .numeric }
            else if type is any NodeCollectionDecodable.Type { .collection }
            else { .structured }
        return shape.rawValue
    }
}
