/// "Did you mean …?" support: Levenshtein distance over Unicode scalars.
enum EditDistance {
    /// The candidate nearest to `name` (at most 2 edits, and fewer edits than the candidate has
    /// scalars); the first one on ties; nil when none is close.
    static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = distance(name, candidate)
            if distance <= 2, distance < candidate.unicodeScalars.count, distance < best?.distance ?? .max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
