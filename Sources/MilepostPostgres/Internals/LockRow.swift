import Milepost

/// The lock row (`lease` table) as read: which kind of lock holds the store, and for a lease,
/// whether it is still live. Written by `AdvisoryLock` and `LeaseLock`.
struct LockRow: Sendable {
    /// The holder of a live lease.
    var leaseHolder: LockHolder?
    /// The run named in the row (nil when free), live or not.
    var run: String?

    /// Reads the row; nil when it does not exist (nothing stored yet, or a store made by an earlier
    /// version that had no lock row).
    static func read(_ schema: PostgresSchema, on session: PostgresSession) async throws -> LockRow? {
        let sql = "SELECT kind, pid, host, since, run, expires_at > now() FROM \(schema.lease)"
        guard let row = try await session.queryIfCreated(sql)?.first else { return nil }
        guard row[0] == "lease", row[5] == "t" else { return LockRow(leaseHolder: nil, run: row[4]) }
        guard let since = row[3].flatMap(Timestamp.init) else {
            throw StoreError.io(
                location: session.location, reason: .malformed("the lease's `since` is not a timestamp: \(row[3] ?? "null")"))
        }
        let holder = LockHolder(pid: Int32(row[1] ?? "") ?? 0, host: row[2] ?? "?", since: since, run: row[4] ?? "?")
        return LockRow(leaseHolder: holder, run: row[4])
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
        return try await session.query(sql, [run]).first?[0]
    }

    /// Frees the row if `run` still holds it (either kind). Best effort: a lease lapses anyway, and
    /// a session lock's row counts as free once its session is gone.
    static func release(_ schema: PostgresSchema, run: String, on session: PostgresSession) async {
        _ = try? await session.query(
            """
            UPDATE \(schema.lease) SET kind = NULL, run = NULL, pid = NULL, host = NULL, since = NULL,
                backend_pid = NULL, expires_at = NULL
            WHERE run = $1
            """, [run])
    }
}
