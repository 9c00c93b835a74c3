/// Where Milepost keeps its state and journal. The file store and the PostgreSQL store
/// conform; an application may bring its own.
///
/// Reading methods write nothing (they back `plan`, `status`, `history`, `run --dry-run`
/// and the pre-start fast path). Writing happens only through a `LockedStore`.
public protocol MilepostStore: Sendable {
    /// Where the store is, for messages (never includes a password).
    var location: String { get }
    /// What tells stores apart: two spellings of one store (`./state` and `state`, a symbolic link
    /// to it; `sqlite:x.db` and `sqlite:///abs/x.db`) have the same identity, and two stores never
    /// share one. A run refuses a host store that is its fleet store, `store copy` a target that
    /// is its source. `location` by default.
    var identity: String { get }
    /// What kind of store this is, for traces and metrics (`file`, `postgres`); `custom` by default.
    var kind: String { get }
    /// The stored state without taking the lock; nil when nothing is stored yet.
    func readState() async throws -> StoredState?
    /// Every journal record, oldest first.
    func readJournal() async throws -> [JournalRecord]
    /// The last `count` journal records, oldest first (fewer when the journal has fewer). Backs
    /// `status` and `history --limit`, which must stay fast however long the journal grows: a
    /// store should read only those records. The default reads the whole journal.
    func readJournal(last count: Int) async throws -> [JournalRecord]
    /// The current holder of the lock, or nil when nobody holds it.
    func lockHolder() async throws -> LockHolder?
    /// Takes the store's exclusive lock, waiting up to `timeout`.
    /// - throws: `StoreError.lockTimeout` naming the holder when the wait runs out.
    func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore
}

/// A store whose lock this process holds. Release it exactly once.
public protocol LockedStore: Sendable {
    /// The state as it is now (re-read after taking the lock).
    func readState() async throws -> StoredState?
    /// Makes `state` the stored state and appends `records` to the journal, as one checkpoint:
    /// after a crash, the state is either the old or the new one, never torn.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws
    /// `commit(_:journal:)`, durable against what `durability` says when it returns. By default
    /// every commit is on the disk (`.disk`).
    func commit(_ state: StoredState, journal records: [JournalRecord], durability: CommitDurability) async throws
    /// Appends records to the journal (durably when any record `isDurable`).
    func append(_ records: [JournalRecord]) async throws
    /// Releases the lock.
    func release() async
}

extension LockedStore {
    public func commit(_ state: StoredState, journal records: [JournalRecord], durability: CommitDurability) async throws {
        try await commit(state, journal: records)
    }
}

extension MilepostStore {
    public var kind: String { "custom" }

    public var identity: String { location }

    public func readJournal(last count: Int) async throws -> [JournalRecord] {
        Array(try await readJournal().suffix(count))
    }
}
