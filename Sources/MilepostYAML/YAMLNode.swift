// CONTRACT STUB — implemented by the YAML work package.
/// A node of a `YAMLDocument`. Aliases are resolved transparently: an alias child is its anchor's node.
public struct YAMLNode: Sendable {
    public enum Kind: Sendable, Hashable { case scalar, sequence, mapping }
    public enum ScalarStyle: Sendable, Hashable { case plain, singleQuoted, doubleQuoted, literal, folded }

    public var kind: Kind { fatalError() }
    public var location: SourceLocation { fatalError() }
    /// The explicit tag as written, if any (only core-schema tags survive parsing).
    public var tag: String? { fatalError() }
    /// For a scalar: its value (after unescaping and folding); nil otherwise.
    public var scalar: String? { fatalError() }
    public var scalarStyle: ScalarStyle? { fatalError() }
    /// For a sequence: its elements; empty otherwise.
    public var elements: [YAMLNode] { fatalError() }
    /// For a mapping: its pairs in source order; empty otherwise.
    public var pairs: [(key: YAMLNode, value: YAMLNode)] { fatalError() }
    /// The scalar resolved by the YAML 1.2 core schema (plain scalars only; quoted ones are strings).
    public var coreValue: YAMLScalarValue? { fatalError() }
    /// A deterministic text of the subtree (mapping keys sorted, scalars core-resolved) for fingerprints.
    public var canonicalText: String { fatalError() }
}

/// A scalar's value under the YAML 1.2 core schema.
public enum YAMLScalarValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)
}
