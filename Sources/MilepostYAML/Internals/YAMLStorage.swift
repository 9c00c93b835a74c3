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

/// One node, 16 bytes. `start`/`count` index the document's `ScalarBytes` for a scalar and
/// the shared child array for a collection (a mapping's children are key, value, key, value…).
/// The kind, style and tag share a word with the column: 9 bits above a 23-bit column; a column
/// from `RawNode.longColumn` on is kept aside by the storage (`YAMLStorage.longColumns`).
struct RawNode: Sendable {
    var line: UInt32
    private var columnAndShape: UInt32
    var start: UInt32
    var count: UInt32

    /// The largest column kept in the node; it stands for any column from it on.
    static let longColumn: UInt32 = (1 << 23) - 1

    init(kind: YAMLNode.Kind, style: YAMLNode.ScalarStyle, tag: CoreTag, line: UInt32, column: UInt32, start: UInt32, count: UInt32) {
        self.line = line
        self.columnAndShape = Self.bits(kind) << 30 | Self.bits(style) << 27 | UInt32(tag.rawValue) << 23 | min(column, Self.longColumn)
        self.start = start
        self.count = count
    }

    var kind: YAMLNode.Kind {
        switch columnAndShape >> 30 {
        case 0: .scalar
        case 1: .sequence
        default: .mapping
        }
    }

    var style: YAMLNode.ScalarStyle {
        switch columnAndShape >> 27 & 7 {
        case 0: .plain
        case 1: .singleQuoted
        case 2: .doubleQuoted
        case 3: .literal
        default: .folded
        }
    }

    var tag: CoreTag {
        // Only `init` and this setter write the bits, from a `CoreTag`.
        get { CoreTag(rawValue: UInt8(truncatingIfNeeded: columnAndShape >> 23 & 15)).unsafelyUnwrapped }
        set { columnAndShape = columnAndShape & ~(15 << 23) | UInt32(newValue.rawValue) << 23 }
    }

    private static func bits(_ kind: YAMLNode.Kind) -> UInt32 {
        switch kind {
        case .scalar: 0
        case .sequence: 1
        case .mapping: 2
        }
    }

    private static func bits(_ style: YAMLNode.ScalarStyle) -> UInt32 {
        switch style {
        case .plain: 0
        case .singleQuoted: 1
        case .doubleQuoted: 2
        case .literal: 3
        case .folded: 4
        }
    }

    /// The column, or `longColumn` for any from it on.
    var column: UInt32 { columnAndShape & Self.longColumn }

    /// Where the node at `index` starts, its column looked up in `longColumns` when it is long.
    @inline(__always)
    func location(_ index: Int, longColumns: [UInt32: Int]) -> SourceLocation {
        let column = column == Self.longColumn ? longColumns[UInt32(index)] ?? Int(column) : Int(column)
        return SourceLocation(line: Int(line), column: column)
    }
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
    /// The columns too large for their node (`RawNode.longColumn` and beyond), by node index.
    let longColumns: [UInt32: Int]

    init(nodes: [RawNode], children: [UInt32], scalars: ScalarBytes, uses: [UInt32: [AliasUse]], longColumns: [UInt32: Int]) {
        self.nodes = nodes
        self.children = children
        self.scalars = scalars
        self.uses = uses
        self.longColumns = longColumns
    }

    /// Where node `index` starts.
    func location(_ index: Int) -> SourceLocation {
        nodes[index].location(index, longColumns: longColumns)
    }

    /// Calls `body` with the scalar bytes of node `index` (empty for a collection).
    func withScalarBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let node = nodes[index]
        guard node.kind == .scalar else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try scalars.withBytes(node.start, node.count, body)
    }

    /// The scalar text of node `index`.
    @inline(__always)
    func text(_ index: Int) -> String {
        withScalarBytes(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Orders scalar nodes by the bytes of their text.
    func compareText(_ a: Int, _ b: Int) -> Int {
        scalars.compare(nodes[a], nodes[b])
    }
}
