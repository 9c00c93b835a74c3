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
    /// A read of the state's head on the calling thread, for the pre-start fast path; nil (the
    /// default) when the store cannot answer without suspending.
    var stateHeadReader: StateHeadReader? { get }
    /// The SQL of the database the store keeps its state in, for steps that run scripts on it;
    /// nil (the default) for a store that is not a database.
    var scriptDialect: ScriptDialect? { get }
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
    /// This lock's lease when the lock can be lost while it is held (`ExpiringLockedStore`: the
    /// PostgreSQL and MariaDB stores' lease lock); nil for a lock held until it is released. The
    /// runner races a run against its loss. `self` for an `ExpiringLockedStore`, nil by default.
    var lease: (any ExpiringLockedStore)? { get }
    /// The store's step transactions when its checkpoints are database transactions
    /// (`TransactionalLockedStore`: the SQL stores); nil when they are not. `self` for a
    /// `TransactionalLockedStore`, nil by default.
    var stepTransactions: (any TransactionalLockedStore)? { get }
    /// What a step may do with this store's database (`StepContext.scripts`); nil (the default)
    /// for a store that is not a database.
    var scripts: StoreScripts? { get }
}

extension LockedStore {
    public var lease: (any ExpiringLockedStore)? { nil }

    public var stepTransactions: (any TransactionalLockedStore)? { nil }

    public var scripts: StoreScripts? { nil }

    public func commit(_ state: StoredState, journal records: [JournalRecord], durability: CommitDurability) async throws {
        try await commit(state, journal: records)
    }
}

extension MilepostStore {
    public var kind: String { "custom" }

    public var stateHeadReader: StateHeadReader? { nil }

    public var scriptDialect: ScriptDialect? { nil }

    public var identity: String { location }

    public func readJournal(last count: Int) async throws -> [JournalRecord] {
        Array(try await readJournal().suffix(count))
    }
}
