import Foundation
import Milepost
import MilepostSystem

/// The store's lock: a session advisory lock held by a connection of its own. The server drops
/// it when that connection ends, so a killed holder never blocks anyone and there is no lock row
/// to clean up.
struct AdvisoryLock: Sendable {
    let schema: PostgresSchema

    private var keys: [String?] { [String(schema.runLock.0), String(schema.runLock.1)] }

    /// Polls `pg_try_advisory_lock` every 25–100 ms (jittered, so waiting replicas do not retry in
    /// step) until `timeout` has passed. No transaction is open while waiting. Once held, records
    /// `holder` and takes a new fencing generation in one statement that also checks, through
    /// `pg_locks`, that the lock belongs to this very server session (it does not behind a
    /// transaction-pooling proxy).
    /// - returns: The fencing generation of this holder.
    /// - throws: `StoreError.lockTimeout` naming the holder from `pg_stat_activity`.
    func acquire(on session: PostgresSession, timeout: Duration, holder: LockHolder) async throws -> Int64 {
        let deadline = ContinuousClock.now + timeout
        while try await session.query("SELECT pg_try_advisory_lock($1, $2)", keys)[0][0] != "t" {
            let remaining = deadline - .now
            guard remaining > .zero else {
                throw StoreError.lockTimeout(
                    location: session.location, waited: timeout, holder: try await self.holder(on: session))
            }
            try await Task.sleep(for: min(remaining, .milliseconds(Int.random(in: 25...100))))
        }
        let sql = """
            UPDATE \(schema.state) SET generation = generation + 1, holder = $3::jsonb, holder_pid = pg_backend_pid()
            WHERE EXISTS (\(heldLocks) AND l.pid = pg_backend_pid())
            RETURNING generation
            """
        guard let generation = try await session.query(sql, keys + [StateQueries.json(holder)]).first?[0].flatMap({ Int64($0) })
        else {
            throw StoreError.io(
                location: session.location,
                reason: .other("the advisory lock is not held by the session that took it: a transaction-pooling "
                    + "proxy (PgBouncer in transaction mode) is in between, and session locks cannot work "
                    + "through it; connect to PostgreSQL directly or through a session-mode pool"))
        }
        return generation
    }

    /// Releases the lock (closing the connection would too; this makes it immediate).
    func release(on session: PostgresSession) async {
        _ = try? await session.query("SELECT pg_advisory_unlock($1, $2)", keys)
    }

    /// Who holds the lock, from `pg_locks` and `pg_stat_activity`: the holder's own record when the
    /// holding session wrote one, else what its `application_name` (`milepost PID@HOST`) says.
    func holder(on session: PostgresSession) async throws -> LockHolder? {
        let sql = """
            SELECT a.pid, a.application_name, COALESCE(host(a.client_addr), 'local'),
                to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                (SELECT s.holder::text FROM \(schema.state) s WHERE s.holder_pid = a.pid)
            FROM pg_stat_activity a
            WHERE a.pid IN (\(heldLocks))
            """
        guard let row = try await session.queryIfCreated(sql, keys)?.first else { return nil }
        if let recorded = row[4], let holder = try? JSONDecoder().decode(LockHolder.self, from: Data(recorded.utf8)) {
            return holder
        }
        let backend = Int32(row[0] ?? "") ?? 0
        let named = Self.parseApplicationName(row[1] ?? "")
        return LockHolder(
            pid: named?.pid ?? backend, host: named?.host ?? (row[2] ?? "?"), since: row[3] ?? "?",
            run: "unknown (PostgreSQL backend \(backend))")
    }

    /// The granted advisory locks on this store's key in this database, as a subquery over `pg_locks l`.
    private var heldLocks: String {
        """
        SELECT l.pid FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
            AND l.classid = $1::integer::oid AND l.objid = $2::integer::oid
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        """
    }

    /// `milepost 4242@web-1` → (4242, "web-1").
    static func parseApplicationName(_ name: String) -> (pid: Int32, host: String)? {
        guard name.hasPrefix("milepost ") else { return nil }
        return ProcessIdentity.parse(name.dropFirst("milepost ".count))
    }
}
