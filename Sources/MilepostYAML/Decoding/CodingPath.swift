/// Coding paths of the values being decoded.
enum CodingPath {
    /// `path` with `key` after it, built in one allocation: every value decoded from a mapping or a
    /// sequence gets one (`path + [key]` makes two, and appends through the generic route).
    static func appending(_ key: any CodingKey, to path: [any CodingKey]) -> [any CodingKey] {
        var result: [any CodingKey] = []
        result.reserveCapacity(path.count + 1)
        for element in path { result.append(element) }
        result.append(key)
        return result
    }
}
