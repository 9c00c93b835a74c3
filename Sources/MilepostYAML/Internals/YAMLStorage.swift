/// The explicit tags a node may carry; everything else is refused while parsing.
enum CoreTag: UInt8, Sendable {
    case none, nonSpecific, str, int, float, bool, null, seq, map

    /// The tag as a manifest author writes it (`!!int`, `!`); nil for `.none`.
    var shorthand: String? {
        switch self {
        case .none: nil
        case .nonSpecific: "!"
        case .str: "!!str"
        case .int: "!!int"
        case .float: "!!float"
        case .bool: "!!bool"
        case .null: "!!null"
        case .seq: "!!seq"
        case .map: "!!map"
        }
    }
}

/// One node, 20 bytes. `start`/`count` index the document's `ScalarBytes` for a scalar and
/// the shared child array for a collection (a mapping's children are key, value, key, value…).
struct RawNode: Sendable {
    var kind: YAMLNode.Kind
    var style: YAMLNode.ScalarStyle
    var tag: CoreTag
    var line: UInt32
    var column: UInt32
    var start: UInt32
    var count: UInt32
}

/// One place a node was reached through: an alias (`*a`) or a merge key (`<<: *a`).
struct AliasUse: Sendable, Hashable {
    var location: SourceLocation
    var merged: Bool
}

/// The immutable, flat storage of one parsed document. Nodes are in source (pre-)order;
/// an alias is a second reference to its anchor's node index in `children`.
final class YAMLStorage: Sendable {
    let nodes: [RawNode]
    let children: [UInt32]
    let scalars: ScalarBytes
    /// The alias and merge uses of the entries of `children` that came through any, by position.
    let uses: [UInt32: [AliasUse]]

    init(nodes: [RawNode], children: [UInt32], scalars: ScalarBytes, uses: [UInt32: [AliasUse]]) {
        self.nodes = nodes
        self.children = children
        self.scalars = scalars
        self.uses = uses
    }

    /// Calls `body` with the scalar bytes of node `index` (empty for a collection).
    func withScalarBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let node = nodes[index]
        guard node.kind == .scalar else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try scalars.withBytes(node.start, node.count, body)
    }

    /// The scalar text of node `index`.
    func text(_ index: Int) -> String {
        withScalarBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Orders scalar nodes by the bytes of their text.
    func compareText(_ a: Int, _ b: Int) -> Int {
        scalars.compare(nodes[a], nodes[b])
    }
}
