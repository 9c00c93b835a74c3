import FoundationEssentials
import Milepost
import MilepostSystem

/// The store's lock as a lease: the lock row (`lease` table) names its holder and an expiry that
/// the holder's heartbeat pushes forward (`LeaseKeeper`). Every statement here is a single
/// statement in its own transaction — no session state, no named prepared statement, no `SET` —
/// so it works through a transaction-pooling proxy (PgBouncer `pool_mode = transaction`).
///
/// Taking the lease bumps the state's generation in the same statement, like the session lock
/// does, so the checkpoints' compare-and-set (`StateQueries.write`) fences out a holder whose lease
/// lapsed. The expiry is compared with the server's clock only, so clocks of replicas never matter.
struct LeaseLock: RenewableLease {
    let schema: PostgresSchema
    let duration: Duration
    var heldWhileSessionLives: Bool { false }
    var lossReason: String { "another runner took it over after it lapsed (this process was paused or cut off)" }

    private var keys: [String?] { [String(schema.runLock.0), String(schema.runLock.1)] }
    private var interval: String { "\(DurationText.milliseconds(duration)) milliseconds" }

    /// Puts back the lock row if it was deleted by hand (`LockRow.recreate`), then polls for the
    /// lease every 25–100 ms (jittered) until `timeout`. One statement takes it when
    /// the row is free, its lease lapsed, or its session-lock holder's session is gone and its hold lapsed; it records
    /// `holder`, bumps the generation, and journals `lock-taken-over` naming the run whose lease
    /// lapsed (and the step it left in progress).
    /// - returns: The fencing generation of this holder, and when the statement that took the lease
    ///   was sent (the lease runs for `duration` from a moment after it).
    /// - throws: `StoreError.lockTimeout` naming the holder.
    func acquire(
        on session: PostgresSession, timeout: Duration, holder: LockHolder
    ) async throws -> (generation: Int64, sent: ContinuousClock.Instant) {
        try await LockRow.recreate(schema, on: session)
        let taken = try await LockPolling.poll(timeout: timeout) { () async throws -> (generation: Int64, sent: ContinuousClock.Instant)? in
            let sent = ContinuousClock.now
            return try await take(on: session, holder: holder).map { ($0, sent) }
        }
        guard let taken else {
            throw StoreError.lockTimeout(location: session.location, waited: timeout, holder: try await self.holder(on: session))
        }
        return taken
    }

    private func take(on session: PostgresSession, holder: LockHolder) async throws -> Int64? {
        let sql = """
            WITH old AS (
                SELECT run, kind = 'lease' AND expires_at < now() AS lapsed FROM \(schema.lease)
            ), claimed AS (
                UPDATE \(schema.lease) l SET kind = 'lease', run = $3, pid = $4::integer, host = $5, since = $6,
                    backend_pid = NULL, expires_at = now() + $7::interval
                WHERE l.kind IS NULL OR (l.kind = 'lease' AND l.expires_at < now())
                    OR (l.kind = 'session' AND (l.expires_at IS NULL OR l.expires_at < now())
                        AND NOT EXISTS (\(AdvisoryLock.heldLocks) AND k.pid = l.backend_pid))
                RETURNING 1
            ), fenced AS (
                UPDATE \(schema.state) SET generation = generation + 1, holder = $8::jsonb, holder_pid = NULL
                WHERE EXISTS (SELECT 1 FROM claimed)
                RETURNING generation, in_progress->>'id' AS step
            ), noted AS (
                INSERT INTO \(schema.journal) (time, run, event, step, record)
                SELECT t.now, $3, 'lock-taken-over', f.step, jsonb_strip_nulls(jsonb_build_object(
                    'time', t.now, 'run', $3::text, 'event', 'lock-taken-over', 'step', f.step,
                    'previous_run', o.run, 'host', $5::text, 'pid', $4::integer))
                FROM fenced f, old o, (SELECT $9::text AS now) t
                WHERE o.lapsed
            )
            SELECT generation FROM fenced
            """
        let parameters = keys + [
            holder.run, String(holder.pid), holder.host, holder.since.text, interval, StateQueries.json(holder),
            Timestamp.now().text,
        ]
        return try await session.query(sql, parameters).first?.int64(0)
    }

    /// Pushes the expiry `duration` past the server's now, if `run` still holds the lease.
    /// - returns: False when it does not (it lapsed and another runner took it).
    func renew(run: String, on session: PostgresSession, fresh: Bool) async throws -> Bool {
        try await !session.query(
            "UPDATE \(schema.lease) SET expires_at = now() + $2::interval WHERE run = $1 AND kind = 'lease' RETURNING 1",
            [run, interval]).isEmpty
    }

    /// Who holds the lock (a live lease, else a session lock), for the timeout's message.
    func holder(on session: PostgresSession) async throws -> LockHolder? {
        try await AdvisoryLock(schema: schema).holder(on: session)
    }
}
