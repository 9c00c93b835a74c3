/// A node of a `YAMLDocument`. Aliases are resolved transparently: an alias child is its anchor's node.
///
/// A node is a small handle (shared storage and an index); copying it is cheap and strings are
/// materialized only when asked for.
public struct YAMLNode: Sendable {
    public enum Kind: Sendable, Hashable { case scalar, sequence, mapping }
    public enum ScalarStyle: Sendable, Hashable { case plain, singleQuoted, doubleQuoted, literal, folded }

    let storage: YAMLStorage
    let index: Int
    /// The aliases and merge keys this handle was reached through, outermost first.
    let uses: [AliasUse]

    init(storage: YAMLStorage, index: Int, uses: [AliasUse] = []) {
        self.storage = storage
        self.index = index
        self.uses = uses
    }

    /// The child at `slot` of the shared child array, remembering the alias or merge it came through.
    fileprivate func child(at slot: Int) -> YAMLNode {
        let via = storage.uses.isEmpty ? nil : storage.uses[UInt32(slot)]
        return YAMLNode(storage: storage, index: Int(storage.children[slot]), uses: via.map { uses + $0 } ?? uses)
    }

    var raw: RawNode { storage.nodes[index] }

    // MARK: - Shape

    public var kind: Kind { raw.kind }

    public var location: SourceLocation { storage.location(index) }

    /// Where this node was brought in when it is anchored content used elsewhere: one note per alias
    /// (`used here`) or merge key (`merged here`) it was reached through, innermost first. Errors about
    /// the node add them, so they point at the use as well as at the anchor.
    public var useNotes: [YAMLError.Note] {
        uses.reversed().map { YAMLError.Note($0.merged ? "merged here" : "used here", at: $0.location) }
    }

    /// The explicit tag as written, if any (only core-schema tags survive parsing).
    /// Core tags are given in their `!!` shorthand (`!!str`), the non-specific tag as `!`.
    public var tag: String? { raw.tag.shorthand }

    // MARK: - Scalars

    /// For a scalar: its value (after unescaping and folding); nil otherwise.
    public var scalar: String? { kind == .scalar ? storage.text(index) : nil }

    public var scalarStyle: ScalarStyle? { kind == .scalar ? raw.style : nil }

    /// The scalar resolved by the YAML 1.2 core schema (plain scalars only; quoted ones are strings).
    /// An explicit core tag decides instead (`!!str 5` is a string, `!!int "5"` an integer).
    /// An integer too large for `Int` resolves to `.string` with its text.
    public var coreValue: YAMLScalarValue? {
        guard kind == .scalar else { return nil }
        switch core {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .float(let value): return .float(value)
        case .bigInt, .string: return .string(storage.text(index))
        }
    }

    /// The core-schema resolution of a scalar, telling big integers apart from strings.
    var core: CoreScalar {
        let raw = raw
        guard raw.kind == .scalar else { return .string }
        if raw.tag == .none, raw.style != .plain { return .string }
        return storage.withScalarBytes(index) { CoreScalar.resolve($0, taggedAs: raw.tag) ?? .string }
    }

    /// Whether this is a null scalar (`~`, `null`, empty plain, or tagged `!!null`): `core == .null`,
    /// comparing the text with the null forms only.
    var isNull: Bool {
        let raw = raw
        guard raw.kind == .scalar, raw.tag == .none ? raw.style == .plain : raw.tag == .null else { return false }
        return storage.withScalarBytes(index, CoreScalar.isNull)
    }

    // MARK: - Collections

    /// For a sequence: its elements; empty otherwise.
    public var elements: Elements {
        Elements(node: self, slots: kind == .sequence ? childIndices.indices : 0..<0)
    }

    /// For a mapping: its pairs in source order; empty otherwise.
    public var pairs: Pairs {
        Pairs(node: self, slots: kind == .mapping ? childIndices.indices : 0..<0)
    }

    /// A sequence's elements, read from the document where they are: iterating them allocates
    /// nothing (as an array, each step's and each parameter list's cost an allocation and a retain
    /// per element at load; issue 32, docs/performance.md).
    public struct Elements: RandomAccessCollection, Sendable {
        let node: YAMLNode
        /// The elements' slots in the document's child array.
        let slots: Range<Int>
        public var startIndex: Int { 0 }
        public var endIndex: Int { slots.count }
        public subscript(position: Int) -> YAMLNode {
            precondition(indices.contains(position), "index out of range")
            return node.child(at: slots.lowerBound + position)
        }
    }

    /// A mapping's pairs in source order, read from the document where they are (see `Elements`).
    public struct Pairs: RandomAccessCollection, Sendable {
        let node: YAMLNode
        /// The keys' and values' slots in the document's child array, key first.
        let slots: Range<Int>
        public var startIndex: Int { 0 }
        public var endIndex: Int { slots.count / 2 }
        public subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) {
            precondition(indices.contains(position), "index out of range")
            let slot = slots.lowerBound + 2 * position
            return (node.child(at: slot), node.child(at: slot + 1))
        }
    }

    /// For a mapping: the value whose scalar key is exactly `key`; nil otherwise.
    public subscript(key: String) -> YAMLNode? {
        pairIndex(of: key, from: 0).map { pairs[$0].value }
    }

    /// For a mapping: the number of the pair whose scalar key is exactly `key`, looked for from pair
    /// `start` to the end, then from the first pair (callers that ask for keys in source order find
    /// each at once); nil when there is none or this is not a mapping.
    func pairIndex(of key: String, from start: Int) -> Int? {
        let count = pairs.count
        guard count > 0 else { return nil }
        let children = childIndices
        var wanted = key
        return wanted.withUTF8 { wanted in
            for offset in 0..<count {
                let pair = (start + offset) % count
                let keyIndex = Int(children[children.startIndex + 2 * pair])
                let key = storage.nodes[keyIndex]
                if key.kind == .scalar, key.count == wanted.count, storage.withScalarBytes(keyIndex, { $0.elementsEqual(wanted) }) {
                    return pair
                }
            }
            return nil
        }
    }

    /// The children's node indices (a mapping's as key, value, key, value…).
    var childIndices: ArraySlice<UInt32> {
        let raw = raw
        guard raw.kind != .scalar else { return [] }
        return storage.children[Int(raw.start)..<Int(raw.start + raw.count)]
    }
}

/// A scalar's value under the YAML 1.2 core schema.
public enum YAMLScalarValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)
}
