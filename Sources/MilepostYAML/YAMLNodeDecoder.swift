/// Decodes `Decodable` values straight from a `YAMLNode` tree; errors carry the node's location
/// and name the expected type.
///
/// `String` decodes from any non-null scalar's text; `Bool`, integers and floating-point numbers
/// from plain scalars whose core-schema value fits; `Duration` from `250ms`, `30s`, `5m`, `1h`.
/// A mapping key the type never asks for is an error ("unknown parameter", with "did you mean").
public struct YAMLNodeDecoder: Sendable {
    public init() {}

    /// Decodes `type` from `node`; a nil node decodes as an empty mapping.
    public func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode?) throws(YAMLError) -> T {
        do {
            return try NodeDecoder.decode(type, from: node, at: [])
        } catch {
            throw DecodingProblem.located(error, node: node, at: [])
        }
    }
}
