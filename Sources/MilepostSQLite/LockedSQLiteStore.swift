import Milepost

/// A SQLite store whose lock this process holds (the `flock` on `PATH.milepost-lock`), with one
/// read-write connection to the database: the locked SQL store (`LockedSQLStore`) over SQLite's
/// dialect. Every checkpoint is one transaction (`BEGIN IMMEDIATE` … `COMMIT`), durable when it
/// returns (WAL, `synchronous=FULL`); a kill mid-transaction leaves the database as it was before it.
typealias LockedSQLiteStore = LockedSQLStore<SQLiteDialect>

/// The SQLite store's part of a locked store.
///
/// The fence of a store whose lock is a file beside the database is the state row itself: each
/// write, and a step's transaction before the step runs in it, first checks that the row is the one
/// this holder last read or wrote (`SeenState`). A process that writes the database without this
/// lock (one that reached it by a hard link, or an older Milepost that locked another spelling of
/// its path) makes this holder's next write refuse, so the step it planned from the older state
/// does not run again.
struct SQLiteDialect: LockedSQLDialect {
    /// The state row's JSON as this holder last read or wrote it; nil when there was no row.
    struct SeenState: Sendable {
        var json: String?
    }

    /// The lock is a file lock (`lock`), renewed by nobody.
    typealias LockConnection = Never

    let lock: SidecarLock.Held
    let location: String

    var scriptDialect: ScriptDialect { .sqlite }
    var scriptsCommitImplicitly: Bool { false }
    var scriptsChooseTransaction: Bool { false }
    var writesAreOneStatement: Bool { false }

    /// Takes SQLite's write lock at once, so the state checked first cannot change before the commit.
    nonisolated(nonsending) func begin(on connection: SQLiteConnection) async throws {
        try connection.execute("BEGIN IMMEDIATE")
    }

    nonisolated(nonsending) func commit(on connection: SQLiteConnection) async throws {
        try connection.execute("COMMIT")
    }

    nonisolated(nonsending) func rollback(on connection: SQLiteConnection) async {
        connection.rollback()
    }

    nonisolated(nonsending) func inTransaction(on connection: SQLiteConnection) async -> Bool {
        connection.inTransaction
    }

    nonisolated(nonsending) func readState(on connection: SQLiteConnection) async throws -> (state: StoredState?, fence: SeenState?) {
        let text = try SQLiteSchema.stateText(on: connection)
        let state = try text.map { text throws(StoreError) in try SQLiteSchema.state(from: text, on: connection) }
        return (state, SeenState(json: text))
    }

    nonisolated(nonsending) func write(
        _ state: StoredState?, completedFrom: Int?, journal records: [JournalRecord], fence: SeenState, on connection: SQLiteConnection
    ) async throws -> SeenState? {
        guard try SQLiteSchema.stateText(on: connection) == fence.json else { return nil }
        let written = try state.map { state throws(StoreError) in SeenState(json: try SQLiteSchema.write(state, on: connection)) }
        try SQLiteSchema.append(records, on: connection)
        return written ?? fence
    }

    /// Unfenced: the step's transaction checked the state when it began, and holds the write lock.
    nonisolated(nonsending) func appendInStepTransaction(_ records: [JournalRecord], fence: SeenState, on connection: SQLiteConnection) async throws -> Bool {
        try SQLiteSchema.append(records, on: connection)
        return true
    }

    nonisolated(nonsending) func stepMayStart(fence: SeenState, on connection: SQLiteConnection) async throws -> Bool {
        try SQLiteSchema.stateText(on: connection) == fence.json
    }

    nonisolated(nonsending) func refusal(run: String, on connection: SQLiteConnection) async -> StoreError {
        .io(location: location, reason: .other(
            "checkpoint refused: the state is not the one this run read under its lock, so another process wrote the "
                + "database without that lock (through a hard link to it, or a Milepost that locks another path to it); "
                + "this checkpoint was not written and the run stops: a step it was to start does not run"))
    }

    /// SQLite's error as `StoreError.io`, so the step fails with it.
    nonisolated(nonsending) func runScript(_ sql: String, on connection: SQLiteConnection) async throws {
        try connection.execute(sql)
    }

    /// The connection is closed by now: drops the file lock.
    nonisolated(nonsending) func lockReleased() async {
        lock.release()
    }
}
