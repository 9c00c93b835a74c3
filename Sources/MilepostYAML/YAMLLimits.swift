/// Budgets that keep hostile input bounded in time and memory.
public struct YAMLLimits: Sendable, Hashable {
    /// Largest accepted document, in bytes.
    public var maxDocumentBytes: Int
    /// Deepest accepted nesting of sequences and mappings.
    public var maxDepth: Int
    /// Most nodes that alias uses (and the merge keys using them) may add when expanded, in total.
    /// Aliases are judged by what they expand to, never by how many there are: one anchor shared by
    /// thousands of steps is fine, a billion laughs is not.
    public var maxAliasExpansionNodes: Int
    /// Most scalar bytes that alias uses may add when expanded, in total.
    public var maxAliasExpansionBytes: Int

    public init(
        maxDocumentBytes: Int = 4 << 20,
        maxDepth: Int = 64,
        maxAliasExpansionNodes: Int = 250_000,
        maxAliasExpansionBytes: Int = 4 << 20
    ) {
        self.maxDocumentBytes = maxDocumentBytes
        self.maxDepth = maxDepth
        self.maxAliasExpansionNodes = maxAliasExpansionNodes
        self.maxAliasExpansionBytes = maxAliasExpansionBytes
    }

    public static let `default` = YAMLLimits()
}
