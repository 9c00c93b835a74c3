import MilepostSystem

/// The `Decoder` for one node. It owns the key bookkeeping of every keyed container made while
/// its type's `init(from:)` runs, and reports keys nobody asked for once that init returns.
final class NodeDecoder: Decoder {
    /// nil stands for an absent document, read as an empty mapping.
    let node: YAMLNode?
    let codingPath: [any CodingKey]
    /// Applied to every `String` decoded (nil: the text as written).
    let strings: YAMLNodeDecoder.StringTransform?
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private var usages: [KeyUsage] = []

    init(node: YAMLNode?, codingPath: [any CodingKey], strings: YAMLNodeDecoder.StringTransform?) {
        self.node = node
        self.codingPath = codingPath
        self.strings = strings
    }

    // MARK: - Decoding a value

    /// Decodes `type` from `node`: scalars, arrays and string-keyed dictionaries natively
    /// (`ScalarDecoding`, `NodeCollectionDecodable`), everything else through its `init(from:)`.
    static func decode<T: Decodable>(
        _ type: T.Type, from node: YAMLNode?, at path: CodingPath, strings: YAMLNodeDecoder.StringTransform?
    ) throws -> T {
        try ScalarDecoding.decode(type, from: node, at: path, strings: strings) { shape in
            if shape == .collection {
                return try NativeShape.collectionType(type).decode(as: type, from: node, at: path, strings: strings)
            }
            let decoder = NodeDecoder(node: node, codingPath: path.keys, strings: strings)
            do {
                let value = try T(from: decoder)
                try decoder.checkUnknownKeys()
                return value
            } catch {
                throw DecodingProblem.located(error, node: node, at: decoder.codingPath)
            }
        }
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedNodeContainer<Key>(node: node, codingPath: codingPath, owner: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedNodeContainer(node: node, codingPath: codingPath, owner: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueNodeContainer(owner: self)
    }

    // MARK: - Unknown keys

    /// The bookkeeping for `mapping` decoded at `path`, shared by every container on that site. The
    /// paths are compared only for the same mapping (an alias reaches one mapping at two paths).
    func usage(of mapping: YAMLNode, at path: [any CodingKey]) -> KeyUsage {
        let existing = usages.first { usage in
            usage.mapping.index == mapping.index && usage.path.count == path.count
                && DecodingProblem.render(usage.path) == DecodingProblem.render(path)
        }
        if let existing { return existing }
        let usage = KeyUsage(mapping: mapping, path: path)
        usages.append(usage)
        return usage
    }

    /// Throws for the first (in source order) mapping key that no container asked for.
    private func checkUnknownKeys() throws {
        guard !usages.isEmpty else { return }
        let unknown = usages.compactMap { usage in usage.firstUnrequestedKey().map { (usage, $0) } }
        guard let (usage, key) = unknown.min(by: { $0.1.location < $1.1.location }) else { return }
        throw usage.unknownKeyError(key)
    }
}
