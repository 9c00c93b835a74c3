// CONTRACT STUB — implemented by the YAML work package.
/// Decodes `Decodable` values straight from a `YAMLNode` tree; errors carry the node's location
/// and name the expected type.
public struct YAMLNodeDecoder: Sendable {
    public init() {}

    /// Decodes `type` from `node`; a nil node decodes as an empty mapping.
    public func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode?) throws(YAMLError) -> T {
        fatalError("unimplemented")
    }
}
