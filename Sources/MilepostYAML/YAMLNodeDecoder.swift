/// Decodes `Decodable` values straight from a `YAMLNode` tree; errors carry the node's location
/// and name the expected type.
///
/// `String` decodes from any non-null scalar's text; `Bool`, integers and floating-point numbers
/// from plain scalars whose core-schema value fits; `Duration` from `250ms`, `30s`, `1h30m`, `1.5h`.
/// A mapping key the type never asks for is an error ("unknown parameter", with "did you mean").
public struct YAMLNodeDecoder: Sendable {
    /// Rewrites the text of a `String` value being decoded from `node` (variable substitution); an
    /// error it throws is reported at the node, after the value's coding path.
    public typealias StringTransform = @Sendable (_ text: String, _ node: YAMLNode) throws(YAMLError) -> String

    /// Applied to every `String` decoded; nil decodes the text as written.
    public var strings: StringTransform?

    public init(strings: StringTransform? = nil) {
        self.strings = strings
    }

    /// Decodes `type` from `node`; a nil node decodes as an empty mapping.
    public func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode?) throws(YAMLError) -> T {
        do {
            return try NodeDecoder.decode(type, from: node, at: CodingPath([]), strings: strings)
        } catch {
            throw DecodingProblem.located(error, node: node, at: [])
        }
    }
}
