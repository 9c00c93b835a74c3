import Milepost

/// A PostgreSQL store whose lock this process holds — the session advisory lock, through the lock
/// session, or a lease — kept alive by its heartbeat: the locked SQL store (`LockedSQLStore`) over
/// PostgreSQL's dialect. State and journal go through the data session.
typealias LockedPostgresStore = LockedSQLStore<PostgresDialect>

/// The PostgreSQL store's part of a locked store.
///
/// Fencing: taking the lock bumped the state's generation and handed this holder the new value.
/// Every write is a compare-and-set on it (and bumps it again), one statement when it only adds
/// completed steps (`StateQueries.write`). A script that ends the step's transaction fails the
/// step (the `sql` step's `transaction: false` runs it on its own instead).
struct PostgresDialect: LockedSQLDialect {
    let store: PostgresStore
    let kind: LockKind
    /// The session the lock was taken on; a session advisory lock is released on it.
    let lockSession: PostgresSession

    var location: String { store.location }
    var scriptDialect: ScriptDialect { .postgresql }
    var scriptsCommitImplicitly: Bool { false }
    var scriptsChooseTransaction: Bool { true }
    var writesAreOneStatement: Bool { true }

    nonisolated(nonsending) func begin(on session: PostgresSession) async throws {
        try await session.begin()
    }

    nonisolated(nonsending) func commit(on session: PostgresSession) async throws {
        try await session.query("COMMIT")
    }

    nonisolated(nonsending) func rollback(on session: PostgresSession) async {
        await session.rollback()
    }

    nonisolated(nonsending) func inTransaction(on session: PostgresSession) async -> Bool {
        await session.connection.inTransaction()
    }

    nonisolated(nonsending) func readState(on session: PostgresSession) async throws -> (state: StoredState?, fence: Int64?) {
        (try await store.queries.read(on: session).state, nil)
    }

    nonisolated(nonsending) func write(
        _ state: StoredState?, completedFrom: Int?, journal records: [JournalRecord], fence: Int64, on session: PostgresSession
    ) async throws -> Int64? {
        guard let state else {
            return try await store.queries.append(records, ifGeneration: fence, on: session) ? fence : nil
        }
        if completedFrom == nil { try await store.queries.clearCompleted(on: session) }
        return try await store.queries.write(state, completedFrom: completedFrom ?? 0, journal: records, ifGeneration: fence, on: session)
    }

    nonisolated(nonsending) func appendInStepTransaction(_ records: [JournalRecord], fence: Int64, on session: PostgresSession) async throws -> Bool {
        try await store.queries.append(records, ifGeneration: fence, on: session)
    }

    nonisolated(nonsending) func wroteNext(after fence: Int64, run: String, on session: PostgresSession) async throws -> Int64? {
        try await LockRow.wroteNext(after: fence, run: run, store.tables, on: session) ? fence + 1 : nil
    }

    /// Names this run and the one that took the lock after it: the run that journaled taking it
    /// over from this one, else the one the lock row names.
    nonisolated(nonsending) func refusal(run: String, on session: PostgresSession) async -> StoreError {
        let taker = try? await LockRow.takenOver(from: run, store.tables, on: session)
        return FenceRefusal.error(
            location: location, run: run, taker: taker ?? nil, howLost: "its lock session was lost or its lease lapsed")
    }

    /// The server's error as `PGQueryFailure`, so the step fails with it.
    nonisolated(nonsending) func runScript(_ sql: String, on session: PostgresSession) async throws {
        do {
            try await session.connection.execute(sql)
        } catch {
            throw session.explained(error)
        }
    }

    nonisolated(nonsending) func reconnect() async throws -> PostgresSession? {
        let data = try await PostgresSession.open(store.settings)
        if !(try await data.isBehindPooler()) { try await data.checkClientConnection() }
        return data
    }

    /// Frees the lock row (either kind).
    nonisolated(nonsending) func releaseLockRow(run: String, on session: PostgresSession) async throws {
        try await LockRow.release(store.tables, run: run, on: session)
    }

    /// Frees the session advisory lock at once (closing its session would, later).
    nonisolated(nonsending) func lockReleased() async {
        if kind == .session { await store.advisoryLock.release(on: lockSession) }
    }
}
