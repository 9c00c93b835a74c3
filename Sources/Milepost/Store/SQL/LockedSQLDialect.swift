/// What one database gives the locked SQL store (`LockedSQLStore`): its connection, its
/// transaction statements, its schema's reads and fenced writes, and how its lock is released.
/// Everything else — when a transaction opens and ends, the step's transaction, the fence's
/// bookkeeping, reconnecting to write a checkpoint, the script's transaction checks — is the
/// kernel's, the same for every database.
///
/// Every requirement runs on the caller's actor (`nonisolated(nonsending)`): the locked store's,
/// so a connection that is not thread-safe (SQLite's) is used by one call at a time, as a
/// synchronous call on the actor would, and need not be `Sendable`. (`nonisolated(nonsending)` is
/// Swift 6.2's: the package's tools version.)
package protocol LockedSQLDialect: Sendable {
    /// The connection state and journal go through (the data connection).
    associatedtype Connection
    /// The connection the lock's lease is renewed on (`LeaseKeeper`).
    associatedtype LockConnection: Sendable = Connection
    /// What a write checks to be sure no other runner wrote since this holder's last write: the
    /// fencing generation (PostgreSQL, MariaDB), or the state row as last seen (SQLite).
    associatedtype Fence: Sendable

    /// Where the store is, for messages.
    var location: String { get }
    /// The SQL the database runs (`StoreScripts.dialect`).
    var scriptDialect: ScriptDialect { get }
    /// True when a script's statement may commit the step's transaction implicitly and the step
    /// goes on, its checkpoint in a transaction of its own (MariaDB's DDL); false when a script
    /// that ends the step's transaction fails the step.
    var scriptsCommitImplicitly: Bool { get }
    /// True when the database's script step has `transaction: true | false` (PostgreSQL's `sql`),
    /// which the advice for a script's transaction control then names.
    var scriptsChooseTransaction: Bool { get }
    /// True when a checkpoint that only adds completed steps, or a journal append, is one
    /// statement, atomic by itself (no transaction is opened for it).
    var writesAreOneStatement: Bool { get }

    nonisolated(nonsending) func begin(on connection: Connection) async throws
    nonisolated(nonsending) func commit(on connection: Connection) async throws
    /// Best effort: a failed rollback leaves nothing open that outlives the connection.
    nonisolated(nonsending) func rollback(on connection: Connection) async
    nonisolated(nonsending) func inTransaction(on connection: Connection) async -> Bool

    /// The stored state, and the fence it gives this holder (nil when reading does not move it).
    nonisolated(nonsending) func readState(on connection: Connection) async throws -> (state: StoredState?, fence: Fence?)
    /// In the open transaction (or as one statement, `writesAreOneStatement`): writes `state` when
    /// given (its completed steps from index `completedFrom`, all of them when nil) and appends
    /// `records`, if `fence` still holds. Does not commit.
    /// - returns: The fence after the write; nil when the fence refused it (nothing was written).
    nonisolated(nonsending) func write(
        _ state: StoredState?, completedFrom: Int?, journal records: [JournalRecord], fence: Fence, on connection: Connection
    ) async throws -> Fence?
    /// Appends `records` in the step's open transaction, which commits with the checkpoint.
    /// - returns: False when the fence refused it.
    nonisolated(nonsending) func appendInStepTransaction(_ records: [JournalRecord], fence: Fence, on connection: Connection) async throws -> Bool
    /// In the step's transaction, just opened: true when the state is still the one `fence` was
    /// taken from, so the step may run on it. (True by default: the checkpoint's write checks it.)
    nonisolated(nonsending) func stepMayStart(fence: Fence, on connection: Connection) async throws -> Bool
    /// After a write sent again on a new connection was refused: the fence the first try left
    /// when the server committed it before the connection broke; nil (the default) when it did not.
    nonisolated(nonsending) func wroteNext(after fence: Fence, run: String, on connection: Connection) async throws -> Fence?
    /// The refusal of a write the fence refused, naming what can be told of the writer.
    nonisolated(nonsending) func refusal(run: String, on connection: Connection) async -> StoreError

    /// Runs a step's script; throws the database's error (a broken connection's included), so the
    /// step fails with it.
    nonisolated(nonsending) func runScript(_ sql: String, on connection: Connection) async throws
    /// A new data connection after the last one broke; nil (the default) when the database has
    /// no connection to lose.
    nonisolated(nonsending) func reconnect() async throws -> Connection?
    /// Frees the lock's row on the data connection (nothing by default).
    nonisolated(nonsending) func releaseLockRow(run: String, on connection: Connection) async throws
    /// After the data connection is closed: frees what else holds the lock (a session advisory
    /// lock, a file lock; nothing by default).
    nonisolated(nonsending) func lockReleased() async
}

extension LockedSQLDialect {
    package nonisolated(nonsending) func stepMayStart(fence: Fence, on connection: Connection) async throws -> Bool { true }

    package nonisolated(nonsending) func wroteNext(after fence: Fence, run: String, on connection: Connection) async throws -> Fence? { nil }

    package nonisolated(nonsending) func reconnect() async throws -> Connection? { nil }

    package nonisolated(nonsending) func releaseLockRow(run: String, on connection: Connection) async throws {}

    package nonisolated(nonsending) func lockReleased() async {}
}
