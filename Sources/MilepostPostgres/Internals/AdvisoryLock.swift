import FoundationEssentials
import Milepost
import MilepostSystem

/// The store's lock: a session advisory lock held by a connection of its own. The server drops
/// it when that connection ends, so a killed holder never blocks anyone for longer than its hold.
///
/// The hold: the lock row also carries an expiry (`hold`) that the holder's heartbeat pushes
/// forward on the lock session (`LeaseKeeper`), so that a lock session that ends while its
/// process lives (`pg_terminate_backend`, an idle-session timeout, a restart) is noticed within a
/// second, taken back on a new session when nobody else took it, and otherwise makes the holder
/// stop its step before the hold lapses — no other runner claims the row before that.
struct AdvisoryLock: RenewableLease {
    let schema: PostgresSchema

    /// How long the lock row stays claimed after the holder's last renewal (every second): the
    /// longest a killed holder keeps the next runner out, and the time a holder whose lock session
    /// ended has to take it back or stop its step.
    static let hold = Duration.seconds(4)
    var duration: Duration { Self.hold }
    var heldWhileSessionLives: Bool { true }
    var lossReason: String {
        "its lock session ended (a server restart, pg_terminate_backend, an idle-session timeout) and another "
            + "runner took the lock before it could be taken back"
    }
    private var interval: String { "\(DurationText.milliseconds(Self.hold)) milliseconds" }

    private var keys: [String?] { [String(schema.runLock.0), String(schema.runLock.1)] }

    /// Polls `pg_try_advisory_lock` every 25–100 ms (jittered, so waiting replicas do not retry in
    /// step) until `timeout` has passed, after putting back the lock row if it was deleted by hand
    /// (`LockRow.recreate`). No transaction is open while waiting. Once held, claims the
    /// lock row (unless a live lease of a runner using the lease lock holds it: the advisory lock is
    /// then given back and the wait goes on), records `holder` and takes a new fencing generation,
    /// in one statement that also checks, through `pg_locks`, that the lock belongs to this very
    /// server session (it does not behind a transaction-pooling proxy).
    /// - returns: The fencing generation of this holder.
    /// - throws: `StoreError.lockTimeout` naming the holder.
    func acquire(on session: PostgresSession, timeout: Duration, holder: LockHolder) async throws -> Int64 {
        try await LockRow.recreate(schema, on: session)
        let generation = try await LockPolling.poll(timeout: timeout) { () async throws -> Int64? in
            guard try await session.query("SELECT pg_try_advisory_lock($1, $2)", keys)[0].isTrue(0) else { return nil }
            if let generation = try await claim(on: session, holder: holder) { return generation }
            await release(on: session)
            return nil
        }
        guard let generation else {
            throw StoreError.lockTimeout(location: session.location, waited: timeout, holder: try await self.holder(on: session))
        }
        return generation
    }

    /// With the advisory lock held: the generation, or nil when a live lease holds the lock row.
    private func claim(on session: PostgresSession, holder: LockHolder) async throws -> Int64? {
        let sql = """
            WITH mine AS (
                SELECT EXISTS (\(Self.heldLocks) AND k.pid = pg_backend_pid()) AS held
            ), claimed AS (
                UPDATE \(schema.lease) SET kind = 'session', run = $3, pid = $4::integer, host = $5, since = $6,
                    backend_pid = pg_backend_pid(), expires_at = now() + $8::interval
                WHERE (kind IS NULL OR expires_at IS NULL OR expires_at < now()) AND (SELECT held FROM mine)
                RETURNING 1
            ), fenced AS (
                UPDATE \(schema.state) SET generation = generation + 1, holder = $7::jsonb, holder_pid = pg_backend_pid()
                WHERE EXISTS (SELECT 1 FROM claimed)
                RETURNING generation
            )
            SELECT (SELECT held FROM mine), (SELECT generation FROM fenced)
            """
        let row = try await session.query(
            sql, keys + [holder.run, String(holder.pid), holder.host, holder.since.text, StateQueries.json(holder), interval])[0]
        guard row.isTrue(0) else {
            throw StoreError.io(
                location: session.location,
                reason: .other("the advisory lock is not held by the session that took it: a transaction-pooling "
                    + "proxy (PgBouncer in transaction mode) is in between, and session locks cannot work "
                    + "through it; use the lease lock (remove milepost_lock=session from the URL, or set "
                    + "milepost_lock=lease)"))
        }
        return row.int64(1)
    }

    /// Pushes the hold forward while this session holds the lock for `run`. On a `fresh` session
    /// (the previous one broke: a restart, `pg_terminate_backend`, an idle-session timeout) takes
    /// the lock back first — only when the lock row still names `run`, so no other runner took it
    /// and the fencing generation is still this holder's (it is not bumped) — and records the new
    /// session's backend pid in the row and the state.
    /// - returns: False when the lock is no longer `run`'s.
    /// - throws: `StoreError.io` when the advisory lock is busy on a fresh session (a waiting runner
    ///   tries it, to give it back while the hold lasts): try again.
    func renew(run: String, on session: PostgresSession, fresh: Bool) async throws -> Bool {
        guard fresh else {
            let sql = """
                UPDATE \(schema.lease) SET expires_at = now() + $2::interval
                WHERE run = $1 AND kind = 'session' AND backend_pid = pg_backend_pid()
                RETURNING 1
                """
            return try await !session.query(sql, [run, interval]).isEmpty
        }
        guard try await session.query("SELECT pg_try_advisory_lock($1, $2)", keys)[0].isTrue(0) else {
            throw StoreError.io(location: session.location, reason: "the advisory lock is busy")
        }
        let sql = """
            WITH mine AS (
                SELECT EXISTS (\(Self.heldLocks) AND k.pid = pg_backend_pid()) AS held
            ), claimed AS (
                UPDATE \(schema.lease) SET backend_pid = pg_backend_pid(), expires_at = now() + $4::interval
                WHERE run = $3 AND kind = 'session' AND (SELECT held FROM mine)
                RETURNING 1
            ), noted AS (
                UPDATE \(schema.state) SET holder_pid = pg_backend_pid() WHERE EXISTS (SELECT 1 FROM claimed)
            )
            SELECT EXISTS (SELECT 1 FROM claimed)
            """
        if try await session.query(sql, keys + [run, interval])[0].isTrue(0) { return true }
        await release(on: session)
        return false
    }

    /// Releases the lock (closing the connection would too; this makes it immediate).
    func release(on session: PostgresSession) async {
        _ = try? await session.query("SELECT pg_advisory_unlock($1, $2)", keys)
    }

    /// Who holds the lock: a live lease's holder from the lock row; else the session lock's, from
    /// `pg_locks` and `pg_stat_activity`: the holder's own record when the holding session wrote
    /// one, else what its `application_name` (`milepost PID@HOST`) says.
    func holder(on session: PostgresSession) async throws -> LockHolder? {
        if let live = try await LockRow.read(schema, on: session)?.liveHolder { return live }
        return try await Self.sessionHolder(keys: keys, recordedIn: schema.state, on: session)
    }

    /// Who holds the advisory lock on `keys` (session or transaction level), from `pg_locks` and
    /// `pg_stat_activity`: the holder's own record when the holding session wrote one in the state
    /// table `recordedIn`, else what its `application_name` (`milepost PID@HOST`) says; nil when
    /// nobody holds it.
    static func sessionHolder(keys: [String?], recordedIn state: String?, on session: PostgresSession) async throws -> LockHolder? {
        let recorded = state.map { "SELECT s.holder::text FROM \($0) s WHERE s.holder_pid = a.pid" } ?? "SELECT NULL"
        let sql = """
            SELECT a.pid, a.application_name, COALESCE(host(a.client_addr), 'local'),
                floor(extract(epoch FROM a.backend_start) * 1000)::bigint, (\(recorded))
            FROM pg_stat_activity a
            WHERE a.pid IN (\(heldLocks))
            """
        guard let row = try await session.queryIfCreated(sql, keys)?.first else { return nil }
        if let recorded = row.text(4), let holder = try? JSONDecoder().decode(LockHolder.self, from: Data(recorded.utf8)) {
            return holder
        }
        let backend = row.int32(0) ?? 0
        let named = parseApplicationName(row.text(1) ?? "")
        guard let started = row.int64(3) else {
            throw StoreError.io(location: session.location, reason: .malformed("no start time for PostgreSQL backend \(backend)"))
        }
        return LockHolder(
            pid: named?.pid ?? backend, host: named?.host ?? (row.text(2) ?? "?"), since: Timestamp(millisecondsSince1970: started),
            run: "unknown (PostgreSQL backend \(backend))")
    }

    /// The granted advisory locks on the store's key (`$1`, `$2`) in this database, as a subquery
    /// over `pg_locks k`.
    static let heldLocks = """
        SELECT k.pid FROM pg_locks k
        WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 2
            AND k.classid = $1::integer::oid AND k.objid = $2::integer::oid
            AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        """

    /// `milepost 4242@web-1` → (4242, "web-1").
    static func parseApplicationName(_ name: String) -> (pid: Int32, host: String)? {
        guard name.hasPrefix("milepost ") else { return nil }
        return ProcessIdentity.parse(name.dropFirst("milepost ".count))
    }
}
