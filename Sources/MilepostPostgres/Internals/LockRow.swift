import Milepost

/// The lock row (`lease` table) as read: who holds the store's lock while its expiry lasts.
/// Written by `AdvisoryLock` and `LeaseLock`.
struct LockRow: Sendable {
    /// The holder named by the row while its expiry lasts (a lease, or a session lock's hold).
    var liveHolder: LockHolder?
    /// The run named in the row (nil when free), live or not.
    var run: String?

    /// Reads the row; nil when it does not exist (nothing stored yet, or a store made by an earlier
    /// version that had no lock row).
    static func read(_ schema: PostgresSchema, on session: PostgresSession) async throws -> LockRow? {
        let sql = "SELECT kind, pid, host, since, run, expires_at > now() FROM \(schema.lease)"
        guard let row = try await session.queryIfCreated(sql)?.first else { return nil }
        guard row.text(0) != nil, row.isTrue(5) else { return LockRow(liveHolder: nil, run: row.text(4)) }
        guard let since = row.text(3).flatMap(Timestamp.init) else {
            throw StoreError.io(
                location: session.location, reason: .malformed("the lease's `since` is not a timestamp: \(row.text(3) ?? "null")"))
        }
        let holder = LockHolder(pid: row.int32(1) ?? 0, host: row.text(2) ?? "?", since: since, run: row.text(4) ?? "?")
        return LockRow(liveHolder: holder, run: row.text(4))
    }

    /// Puts the lock row back when it was deleted by hand (`DELETE FROM milepost.lease`, the way
    /// other tools' lock tables are cleared): without it no lock could ever be claimed. The row comes
    /// back free, or — when a session advisory lock on the store is held meanwhile — naming that
    /// lock's session, so a lease taker still waits for it. Returns whether the row was missing.
    /// One statement; a row that exists is left as it is.
    @discardableResult
    static func recreate(_ schema: PostgresSchema, on session: PostgresSession) async throws -> Bool {
        let sql = """
            INSERT INTO \(schema.lease) (singleton, kind, backend_pid)
            SELECT true, CASE WHEN held.pid IS NULL THEN NULL ELSE 'session' END, held.pid
            FROM (SELECT (\(AdvisoryLock.heldLocks) LIMIT 1) AS pid) held
            ON CONFLICT (singleton) DO NOTHING
            RETURNING 1
            """
        let keys = [String(schema.runLock.0), String(schema.runLock.1)]
        return try await !session.query(sql, keys).isEmpty
    }

    /// The run that took the lock after `run` lost it: the one whose `lock-taken-over` record
    /// names `run` (a lapsed lease), else the one the row names now; nil when neither is known.
    static func takenOver(from run: String, _ schema: PostgresSchema, on session: PostgresSession) async throws -> String? {
        let sql = """
            SELECT COALESCE(
                (SELECT j.run FROM \(schema.journal) j
                 WHERE j.event = 'lock-taken-over' AND j.record->>'previous_run' = $1 ORDER BY j.seq DESC LIMIT 1),
                (SELECT l.run FROM \(schema.lease) l WHERE l.run <> $1))
            """
        return try await session.query(sql, [run]).first?.text(0)
    }

    /// Whether the write that takes the fencing generation past `generation` is `run`'s own: the
    /// generation is one past it and the lock row still names `run` (another runner would have
    /// claimed the row, and bumped the generation, before writing). Asked when a write was sent
    /// again after the connection broke and the fence refused it: the first try had committed.
    static func wroteNext(after generation: Int64, run: String, _ schema: PostgresSchema, on session: PostgresSession) async throws -> Bool {
        let sql = "SELECT s.generation = $1::bigint + 1 AND l.run = $2 FROM \(schema.state) s, \(schema.lease) l"
        return try await session.query(sql, [String(generation), run]).first?.isTrue(0) == true
    }

    /// Frees the row if `run` still holds it (either kind). Callers may treat it as best effort: a
    /// lease lapses anyway, and a session lock's row counts as free once its session is gone.
    static func release(_ schema: PostgresSchema, run: String, on session: PostgresSession) async throws {
        try await session.query(
            """
            UPDATE \(schema.lease) SET kind = NULL, run = NULL, pid = NULL, host = NULL, since = NULL,
                backend_pid = NULL, expires_at = NULL
            WHERE run = $1
            """, [run])
    }
}
