import MilepostSystem

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

    private static let shapes = PerTypeMemo { type in
        let shape: NativeShape =
            if type is any FixedWidthInteger.Type || type is any BinaryFloatingPoint.Type { .numeric }
            else if type is any NodeCollectionDecodable.Type { .collection }
            else { .structured }
        return shape.rawValue
    }
}
