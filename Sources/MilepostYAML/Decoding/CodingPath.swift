/// The coding path of a value being decoded, written out as an array only when asked: for an
/// error, or for a `NodeDecoder` (a type's own `init(from:)`). Every element of a sequence or a
/// mapping has one, and building each as an array was ≈ 500 instructions an element, 3 % of a
/// big manifest's load (issue 32, docs/performance.md).
struct CodingPath {
    private let parent: [any CodingKey]
    private let last: (any CodingKey)?

    /// The path `keys`.
    init(_ keys: [any CodingKey]) {
        parent = keys
        last = nil
    }

    /// `parent` with `key` after it.
    init(_ key: any CodingKey, after parent: [any CodingKey]) {
        self.parent = parent
        last = key
    }

    /// The keys, in one allocation (`parent + [key]` makes two, and appends through the generic route).
    var keys: [any CodingKey] {
        guard let last else { return parent }
        var keys: [any CodingKey] = []
        keys.reserveCapacity(parent.count + 1)
        for key in parent { keys.append(key) }
        keys.append(last)
        return keys
    }
}
