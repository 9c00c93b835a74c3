/// "Did you mean …?": the known name closest to a misspelt one.
package enum NameSuggestion {
    /// The candidate nearest to `name`, if it is a likely typo of it: within a few edits
    /// (case-insensitive, a transposition counts as one), or sharing a long enough prefix
    /// (`retry` → `retries`). The first one on ties; nil when none is close.
    package static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased().unicodeScalars)
        let limit = max(2, typed.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let known = Array(candidate.lowercased().unicodeScalars)
            let distance = editDistance(typed, known)
            let shared = zip(typed, known).prefix { $0 == $1 }.count
            let sharesPrefix = shared >= 4 && shared * 2 >= min(typed.count, known.count)
            guard (distance <= limit && distance < known.count) || sharesPrefix else { continue }
            if distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance with adjacent transpositions (optimal string alignment).
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
