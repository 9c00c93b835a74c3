/// Budgets that keep hostile input bounded in time and memory.
public struct YAMLLimits: Sendable, Hashable {
    /// Largest accepted document, in bytes.
    public var maxDocumentBytes: Int
    /// Deepest accepted nesting of sequences and mappings.
    public var maxDepth: Int
    /// Most alias (`*name`) uses in one document.
    public var maxAliases: Int
    /// Most nodes that alias uses may add when expanded, in total.
    public var maxAliasExpansionNodes: Int
    /// Most scalar bytes that alias uses may add when expanded, in total.
    public var maxAliasExpansionBytes: Int

    public init(
        maxDocumentBytes: Int = 4 << 20,
        maxDepth: Int = 64,
        maxAliases: Int = 100,
        maxAliasExpansionNodes: Int = 10_000,
        maxAliasExpansionBytes: Int = 1 << 20
    ) {
        self.maxDocumentBytes = maxDocumentBytes
        self.maxDepth = maxDepth
        self.maxAliases = maxAliases
        self.maxAliasExpansionNodes = maxAliasExpansionNodes
        self.maxAliasExpansionBytes = maxAliasExpansionBytes
    }

    public static let `default` = YAMLLimits()
}
