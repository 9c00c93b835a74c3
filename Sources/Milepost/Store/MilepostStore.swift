/// Where Milepost keeps its state and journal. The file store and the PostgreSQL store
/// conform; an application may bring its own.
///
/// Reading methods write nothing (they back `plan`, `status`, `history`, `run --dry-run`
/// and the pre-start fast path). Writing happens only through a `LockedStore`.
public protocol MilepostStore: Sendable {
    /// Where the store is, for messages (never includes a password).
    var location: String { get }
    /// The stored state without taking the lock; nil when nothing is stored yet.
    func readState() async throws -> StoredState?
    /// Every journal record, oldest first.
    func readJournal() async throws -> [JournalRecord]
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
    /// Appends records to the journal (durably when any record `isDurable`).
    func append(_ records: [JournalRecord]) async throws
    /// Releases the lock.
    func release() async
}
