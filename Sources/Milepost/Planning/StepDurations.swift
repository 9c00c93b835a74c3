/// How long steps took, from the journals of the stores that ran them: every completed attempt
/// (`step-succeeded`) of a step, by id, with the fingerprint it ran with. Built in one pass over
/// each journal (a dictionary append per record), so reading history costs what reading the
/// journals does, however many steps ask (`estimate(for:)`).
///
/// A record written before the journal carried fingerprints takes the fingerprint its store's
/// state recorded for the step when that run completed it; one that neither tells (a repeatable
/// step's earlier runs, a journal copied without its state) counts as a run of the entry as it is.
/// The same attempt read from two stores (a store and its `store copy`) counts once.
public struct StepDurations: Sendable {
    /// One completed attempt: its duration and the fingerprint of the entry it ran.
    struct Sample: Sendable {
        let milliseconds: Int
        let fingerprint: String?
    }

    private var samples: [String: [Sample]] = [:]
    /// Attempts already counted: `run`, `step`, `attempt`.
    private var seen: Set<String> = []

    public init() {}

    /// Adds the completed attempts of `journal` (oldest first), its store's `state` standing in for
    /// the fingerprints older records lack.
    public mutating func add(journal: [JournalRecord], state: StoredState?) {
        var recorded: [String: String]?
        for record in journal where record.event == .stepSucceeded {
            guard let id = record.step, let milliseconds = record.durationMs,
                  seen.insert("\(record.run) \(id) \(record.attempt ?? 0)").inserted else { continue }
            var fingerprint = record.fingerprint
            if fingerprint == nil {
                // Built once, at the first record without one.
                let byRun = recorded ?? Dictionary(
                    (state?.completed ?? []).filter { !$0.fingerprint.isEmpty }.map { ("\($0.run) \($0.id)", $0.fingerprint) },
                    uniquingKeysWith: { _, last in last })
                recorded = byRun
                fingerprint = byRun["\(record.run) \(id)"]
            }
            samples[id, default: []].append(Sample(milliseconds: milliseconds, fingerprint: fingerprint))
        }
    }

    /// What history and the manifest say about `step`'s duration. Works out the step's fingerprint
    /// only when its runs recorded one.
    public func estimate(for step: ManifestStep) -> StepEstimate {
        let all = samples[step.id] ?? []
        let current = all.contains { $0.fingerprint != nil } ? step.fingerprint : nil
        var (same, other): ([Int], [Int]) = ([], [])
        for sample in all {
            if sample.fingerprint == nil || sample.fingerprint == current {
                same.append(sample.milliseconds)
            } else {
                other.append(sample.milliseconds)
            }
        }
        return StepEstimate(
            history: DurationStatistics(milliseconds: same), editedHistory: DurationStatistics(milliseconds: other),
            expected: step.expected)
    }
}

/// The median, p95 and longest of a step's completed attempts, and how many there were.
public struct DurationStatistics: Sendable, Equatable {
    /// How many completed attempts the figures rest on (at least one).
    public let runs: Int
    /// The middle duration; the mean of the two middle ones for an even count.
    public let median: Duration
    /// The 95th percentile by nearest rank: the shortest duration that at least 95 % of the
    /// attempts took no longer than (the longest, below 20 attempts).
    public let p95: Duration
    public let max: Duration

    /// The statistics of `milliseconds`; nil when it is empty.
    public init?(milliseconds: [Int]) {
        guard !milliseconds.isEmpty else { return nil }
        let sorted = milliseconds.sorted()
        let count = sorted.count
        runs = count
        let middle = count / 2
        median = .milliseconds(count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
        // Nearest rank: ceil(0.95 n), 1-based.
        p95 = .milliseconds(sorted[(count * 95 + 99) / 100 - 1])
        max = .milliseconds(sorted[count - 1])
    }
}

/// What is known of how long a step takes: its completed attempts as it is now, those of earlier
/// entries (another fingerprint: shown, used only when nothing else is known), and its `expected:`.
public struct StepEstimate: Sendable, Equatable {
    /// Where the duration a budget uses comes from.
    public enum Basis: String, Sendable {
        /// The p95 of the step's completed attempts as it is now.
        case history
        /// The manifest's `expected:`, with no attempt of the step as it is now recorded.
        case expected
        /// The p95 of attempts of an earlier entry (its fingerprint differs), with neither of the above.
        case editedHistory = "edited-history"
    }

    /// The step's completed attempts as it is now; nil when none is recorded ("no history").
    public let history: DurationStatistics?
    /// Attempts recorded for an earlier entry of the step (edited since); nil when none.
    public let editedHistory: DurationStatistics?
    /// The manifest's `expected:`.
    public let expected: Duration?

    public init(history: DurationStatistics?, editedHistory: DurationStatistics?, expected: Duration?) {
        self.history = history
        self.editedHistory = editedHistory
        self.expected = expected
    }

    /// The duration a budget counts for the step: the p95 of its history, else its `expected:`,
    /// else the p95 of an earlier entry's; nil when nothing is known.
    public var budgeted: (duration: Duration, basis: Basis)? {
        if let history { return (history.p95, .history) }
        if let expected { return (expected, .expected) }
        if let editedHistory { return (editedHistory.p95, .editedHistory) }
        return nil
    }
}
