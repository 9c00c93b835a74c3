import MilepostSystem

/// Moves a store's history into another store (`milepost store copy`): a host that grows into a
/// fleet moves its file store into PostgreSQL, an application its SQLite store into a server.
///
/// The state (version, completed steps, marks with their cursors, the compatibility floor) and
/// every journal record are written to the target in one checkpoint, under the locks of both
/// stores (the source's first); the source is only read. A target that already has a state is
/// refused unless `force`: then its state is replaced and the copied records follow its own.
public enum StoreCopy {
    /// What was copied.
    public struct Report: Sendable {
        /// The state now in the target.
        public let state: StoredState
        /// How many journal records were copied.
        public let journalRecords: Int
    }

    /// Why a copy was refused; nothing was written.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The source has no state: nothing has run on it.
        case nothingStored(source: String)
        /// The target has a state (at `version`), and `force` was not given.
        case targetHasState(target: String, version: String)
        /// The source and the target are the same store (`MilepostStore.identity`), however spelled.
        case sameStore(String)

        public var description: String {
            switch self {
            case .nothingStored(let source): "nothing is stored in \(source): there is no state to copy"
            case .targetHasState(let target, let version):
                "\(target) already has a state (version \(version)); it is left as it is"
            case .sameStore(let location): "the source and the target are the same store (\(location))"
            }
        }
    }

    /// Copies `source` into `target`, waiting up to `lockTimeout` for each store's lock.
    /// - throws: `Refusal`, or the stores' errors (`StoreError.lockTimeout` naming a holder).
    public static func copy(
        from source: any MilepostStore, to target: any MilepostStore, force: Bool = false, lockTimeout: Duration
    ) async throws -> Report {
        // One store spelled two ways (`./A` and `A`, a link): its second lock would wait for the first.
        guard source.identity != target.identity else { throw Refusal.sameStore(source.location) }
        let holder = LockHolder(
            pid: ProcessIdentity.pid, host: ProcessIdentity.host, since: Timestamp.now(), run: RunJournal.newRunID())
        return try await source.withLock(timeout: lockTimeout, holder: holder) { from in
            guard let state = try await from.readState() else { throw Refusal.nothingStored(source: source.location) }
            let records = try await source.readJournal()
            return try await target.withLock(timeout: lockTimeout, holder: holder) { into in
                if let existing = try await into.readState(), !force {
                    throw Refusal.targetHasState(target: target.location, version: existing.version.text)
                }
                try await into.commit(state, journal: records)
                return Report(state: state, journalRecords: records.count)
            }
        }
    }
}
