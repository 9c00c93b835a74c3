public import Milepost

/// TiTi's Milepost store: a `FileStore` in the app's data directory that, until Milepost has written
/// its first state, takes the version from the legacy `lastUpdateVersion` (see `LegacyDefaults`),
/// so users who already ran the hand-rolled upgrade code are not migrated twice.
public struct TiTiStore: MilepostStore {
    let files: FileStore
    let legacy: LegacyDefaults

    public init(directory: String, legacyDefaults: LegacyDefaults) {
        files = FileStore(path: directory)
        legacy = legacyDefaults
    }

    /// The store `titi-migrate --store SPEC` opens: the directory SPEC, with the standard legacy defaults.
    public init(spec: String) {
        self.init(directory: spec, legacyDefaults: .standard())
    }

    public var location: String { files.location }

    public func readState() async throws -> StoredState? {
        try legacy.fallback(for: try await files.readState())
    }

    public func readJournal() async throws -> [JournalRecord] {
        try await files.readJournal()
    }

    public func readJournal(last count: Int) async throws -> [JournalRecord] {
        try await files.readJournal(last: count)
    }

    public func lockHolder() async throws -> LockHolder? {
        try await files.lockHolder()
    }

    public func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore {
        Locked(files: try await files.lock(timeout: timeout, holder: holder), legacy: legacy)
    }

    /// The locked file store, read through the same legacy fallback.
    struct Locked: LockedStore {
        let files: any LockedStore
        let legacy: LegacyDefaults

        func readState() async throws -> StoredState? {
            try legacy.fallback(for: try await files.readState())
        }

        func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
            try await files.commit(state, journal: records)
        }

        func append(_ records: [JournalRecord]) async throws {
            try await files.append(records)
        }

        func release() async {
            await files.release()
        }
    }
}
