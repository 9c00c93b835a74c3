/// The versions a store reached, oldest first, read without running anything (like .NET MAUI's
/// `VersionTracking`): an app asks it at launch whether this is the first launch of its version
/// (to show a one-time "what's new"), which version it upgraded from, and which it was installed at.
///
/// Derived from what every store already records, so it works on any store and on stores written
/// by earlier Milepost versions: the journal's `run-finished` records with outcome `succeeded` and
/// its `baseline` records (each sets the stored version to its `to`), then the stored state's
/// `version` when the journal does not end at it (a journal removed by hand, or a state written
/// by other tools). A version reached again right after itself (a run that only ran new steps at
/// the same version) is one entry.
///
/// Reading it reads the whole journal (`readJournal()`): its cost grows with the journal, one
/// decoded record per line. `status` and the pre-start fast path do not use it.
public struct VersionHistory: Sendable, Equatable {
    /// One version the store reached.
    public struct Entry: Sendable, Equatable, Codable {
        /// How the stored version was set.
        public enum Source: String, Sendable, Codable {
            /// A run that succeeded (`run-finished`, outcome `succeeded`).
            case run
            /// `milepost baseline` / `StoreMaintenance.baseline`.
            case baseline
            /// Only the stored state says so: the journal has no record of it.
            case state
        }

        /// The version, as written by whoever set it.
        public var version: String
        /// When it was reached.
        public var at: Timestamp
        /// The run that reached it; nil for `.state`.
        public var run: String?
        public var source: Source

        public init(version: String, at: Timestamp, run: String?, source: Source) {
            self.version = version
            self.at = at
            self.run = run
            self.source = source
        }
    }

    /// Every version reached, oldest first; empty for a store that holds nothing.
    public let reached: [Entry]

    public init(reached: [Entry]) {
        self.reached = reached
    }

    /// Derives the history from a store's state and its journal (oldest first).
    public init(state: StoredState?, journal: [JournalRecord]) {
        var reached: [Entry] = []
        func add(_ entry: Entry) {
            if let last = reached.last, Self.same(last.version, entry.version) { return }
            reached.append(entry)
        }
        for record in journal {
            guard let to = record.to else { continue }
            switch record.event {
            case .runFinished where record.outcome == .succeeded:
                add(Entry(version: to, at: record.time, run: record.run, source: .run))
            case .baseline:
                add(Entry(version: to, at: record.time, run: record.run, source: .baseline))
            default:
                continue
            }
        }
        if let state { add(Entry(version: state.version.text, at: state.updatedAt, run: nil, source: .state)) }
        self.reached = reached
    }

    /// The stored version now; nil when nothing is stored.
    public var currentVersion: String? { reached.last?.version }

    /// The version reached before the current one; nil when the store reached only one version.
    public var previousVersion: String? { reached.dropLast().last?.version }

    /// The first version the store reached (the version the app was installed at, when its
    /// first run went straight to it); nil when nothing is stored.
    public var firstInstalledVersion: String? { reached.first?.version }

    /// True when the store has never reached `version`: no run to it has succeeded and no
    /// baseline set it. A read-only question: it turns false once a run to `version` succeeds.
    /// An app asks it *before* running its steps at launch, and shows its one-time notice when
    /// the run then succeeds. Versions compare numerically (`2.7` is `2.7.0`).
    public func isFirstLaunch(of version: Version) -> Bool {
        !reached.contains { Version($0.version) == version }
    }

    /// Whether two stored version texts name the same version (numerically when both parse).
    private static func same(_ lhs: String, _ rhs: String) -> Bool {
        if let left = Version(lhs), let right = Version(rhs) { return left == right }
        return lhs == rhs
    }
}

extension MilepostStore {
    /// The versions this store reached, read from its state and whole journal; writes nothing.
    /// The journal is read first: a run commits its state before appending its `run-finished`,
    /// so a run finishing meanwhile shows as a `.state` entry, never as a stale current version.
    public func versionHistory() async throws -> VersionHistory {
        let journal = try await readJournal()
        return VersionHistory(state: try await readState(), journal: journal)
    }
}
