import MilepostSystem

/// The keys asked of one mapping (found or not), for the unknown-key check once its type's
/// `init(from:)` returns. A lookup marks the pair it finds, so the check is one pass over the pairs.
final class KeyUsage {
    /// The mapping's pairs (their `node` is the mapping).
    let pairs: YAMLNode.Pairs
    var mapping: YAMLNode { pairs.node }
    let path: [any CodingKey]
    /// Every name asked for, in the order asked (repeats included): the "did you mean" candidates.
    private var requested: [String] = []
    /// Whether pair `n` of the mapping was asked for.
    private var asked: [Bool]
    /// The last pair found, where the next lookup starts: types mostly ask for keys in source order.
    private var lastPair = 0

    init(mapping: YAMLNode, path: [any CodingKey]) {
        pairs = mapping.pairs
        self.path = path
        asked = Array(repeating: false, count: pairs.count)
        requested.reserveCapacity(asked.count + 2)
    }

    /// The value at `name`, noting the name as asked for.
    func value(at name: String) -> YAMLNode? {
        requested.append(name)
        guard let pair = mapping.pairIndex(of: name, from: lastPair) else { return nil }
        asked[pair] = true
        lastPair = pair
        return pairs[pair].value
    }

    /// The first key of the mapping (in source order) that was never asked for.
    func firstUnrequestedKey() -> YAMLNode? {
        asked.firstIndex(of: false).map { pairs[$0].key }
    }

    /// An unasked key close enough to `name` to be its misspelling.
    func unrequestedKey(near name: String) -> YAMLNode? {
        asked.indices.lazy.filter { !self.asked[$0] }.map { self.pairs[$0].key }.first { key in
            NameSuggestion.closest(to: key.scalar ?? "", among: [name]) != nil
        }
    }

    func unknownKeyError(_ key: YAMLNode) -> YAMLError {
        let suggestion = NameSuggestion.closest(to: key.scalar ?? "", among: requested)
        return DecodingProblem.unknownKey(key, suggestion: suggestion, at: path)
    }
}
