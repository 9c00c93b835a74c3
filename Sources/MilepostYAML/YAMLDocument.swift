/// One parsed YAML document: a compact node tree, every node with its source location.
public struct YAMLDocument: Sendable {
    private let storage: YAMLStorage
    private let rootIndex: Int?

    /// The root node, or nil for an empty document.
    public var root: YAMLNode? { rootIndex.map { YAMLNode(storage: storage, index: $0) } }

    /// Parses exactly one document from `bytes` (UTF-8; a UTF-16 BOM is honoured by libyaml).
    /// Throws every structural problem it can locate, first one first; at least one.
    public static func parse(_ bytes: [UInt8], limits: YAMLLimits = .default) throws(YAMLErrors) -> YAMLDocument {
        var composer = Composer(input: bytes, limits: limits)
        let (storage, root) = try composer.compose().get()
        return YAMLDocument(storage: storage, rootIndex: root)
    }
}

/// One or more YAML errors, in source order.
public struct YAMLErrors: Error, Sendable {
    public var errors: [YAMLError]
    public init(_ errors: [YAMLError]) { self.errors = errors }
}
