/// Which crash points of a path get a trial: all of them, or — for a large manifest, with
/// `maxTrials` — a sample drawn with `seed`, so that the same seed picks the same points again
/// (`milepost test --seed S --max-trials N`; the seed is printed with every result).
public struct TrialSelection: Sendable, Equatable {
    /// Orders the points before the sample is taken.
    public let seed: UInt64
    /// At most this many trials per path; nil: one per crash point.
    public let maxTrials: Int?

    public init(seed: UInt64, maxTrials: Int? = nil) {
        self.seed = seed
        self.maxTrials = maxTrials
    }

    /// A selection with a random seed.
    public static func random(maxTrials: Int? = nil) -> TrialSelection {
        TrialSelection(seed: UInt64.random(in: 0...UInt64(UInt32.max)), maxTrials: maxTrials)
    }

    /// The crash points to try among `points`, in their order in the run: every one, or the
    /// first `maxTrials` of them in the order the seed shuffles them into.
    public func choose(from points: [CrashPoint]) -> [CrashPoint] {
        guard let maxTrials, maxTrials < points.count else { return points }
        var generator = SeededGenerator(seed: seed)
        let chosen = Set(Array(points.indices).shuffled(using: &generator).prefix(max(0, maxTrials)))
        return points.indices.filter(chosen.contains).map { points[$0] }
    }
}
