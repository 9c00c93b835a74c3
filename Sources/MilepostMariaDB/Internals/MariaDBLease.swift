import Milepost
import MilepostSystem

/// The store's lock: a lease row (`milepost_lease`) naming its holder and an expiry that the
/// holder's `LeaseKeeper` pushes forward — not `GET_LOCK`, which is local to one
/// node of a Galera or Percona XtraDB cluster (two runners on two nodes would both get it) and
/// dies silently with a connection that a proxy or fail-over replaced.
///
/// Taking the lease bumps the state's generation in the same transaction; every checkpoint checks
/// that generation in its own transaction (`MariaDBSchema.write`), so a holder whose lease lapsed
/// (a paused or cut-off process) has its writes refused. Expiry is compared with the server's
/// clock only, so the clocks of the runners' hosts never matter.
struct MariaDBLease: Sendable {
    let duration: Duration

    private var microseconds: String { String(duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000) }

    /// Polls for the lease every 20–100 ms (jittered) until `timeout`.
    /// - returns: The fencing generation of this holder, and when the statement that took the
    ///   lease was sent (the lease runs for `duration` from a moment after it).
    /// - throws: `StoreError.lockTimeout` naming the holder.
    func acquire(
        on connection: MariaDBConnection, timeout: Duration, holder: LockHolder
    ) async throws -> (generation: Int64, sent: ContinuousClock.Instant) {
        let taken = try await LockPolling.poll(timeout: timeout) { () async throws -> (generation: Int64, sent: ContinuousClock.Instant)? in
            let sent = ContinuousClock.now
            return try await take(on: connection, holder: holder).map { ($0, sent) }
        }
        guard let taken else {
            throw StoreError.lockTimeout(location: connection.settings.location, waited: timeout, holder: try await Self.holder(on: connection))
        }
        return taken
    }

    /// One transaction: takes the row when it is free or its lease lapsed, records `holder`, bumps
    /// the generation, and journals `lock-taken-over` naming the run whose lease lapsed (and the
    /// step it left in progress). Nil when the lease is held (or a deadlock made the server roll back).
    private func take(on connection: MariaDBConnection, holder: LockHolder) async throws(StoreError) -> Int64? {
        let table = MariaDBSchema.lease
        try await MariaDBSchema.run(connection, "BEGIN")
        do throws(StoreError) {
            let row = try await MariaDBSchema.rows(
                connection,
                "SELECT run, expires_at < NOW(6), expires_at IS NULL OR expires_at < NOW(6) FROM \(table) WHERE id = 1 FOR UPDATE"
            ).first
            guard let row, row.isTrue(2) else {
                await connection.rollback()
                return nil
            }
            try await MariaDBSchema.run(
                connection,
                "UPDATE \(table) SET run = ?, pid = ?, host = ?, since = ?, expires_at = NOW(6) + INTERVAL \(microseconds) MICROSECOND WHERE id = 1",
                [holder.run, String(holder.pid), holder.host, holder.since.text])
            try await MariaDBSchema.run(connection, "UPDATE \(MariaDBSchema.state) SET generation = generation + 1 WHERE id = 1")
            let fenced = try await MariaDBSchema.rows(connection, "SELECT generation, state FROM \(MariaDBSchema.state) WHERE id = 1").first
            guard let generation = fenced?.int64(0) else {
                throw .io(location: connection.settings.location, reason: .malformed("the row of \(MariaDBSchema.state) is missing"))
            }
            if row.isTrue(1), let previous = row.text(0) {
                let step = try fenced?.text(1).map { json throws(StoreError) in
                    try StoredState.decode(json: Array(json.utf8), location: connection.settings.location).inProgress?.id
                } ?? nil
                try await MariaDBSchema.append(
                    [JournalRecord(
                        time: .now(), run: holder.run, event: .lockTakenOver, step: step, host: holder.host, pid: holder.pid,
                        previousRun: previous)],
                    on: connection)
            }
            try await MariaDBSchema.run(connection, "COMMIT")
            return generation
        } catch {
            await connection.rollback()
            if case .io(_, .database(.deadlock?, _)) = error { return nil }
            throw error
        }
    }

    /// Pushes the expiry `duration` past the server's now, if `run` still holds the lease.
    /// - returns: False when it does not (it lapsed and another runner took it).
    func renew(run: String, on connection: MariaDBConnection) async throws(StoreError) -> Bool {
        try await MariaDBSchema.run(
            connection,
            "UPDATE \(MariaDBSchema.lease) SET expires_at = NOW(6) + INTERVAL \(microseconds) MICROSECOND WHERE id = 1 AND run = ?",
            [run]
        ).matched == 1
    }

    /// Frees the row if `run` still holds it.
    static func release(run: String, on connection: MariaDBConnection) async throws(StoreError) {
        try await MariaDBSchema.run(
            connection,
            "UPDATE \(MariaDBSchema.lease) SET run = NULL, pid = NULL, host = NULL, since = NULL, expires_at = NULL WHERE id = 1 AND run = ?",
            [run])
    }

    /// The run that took the lock after `run` lost it (the one the row names now), if any.
    static func takenOver(from run: String, on connection: MariaDBConnection) async throws(StoreError) -> String? {
        try await MariaDBSchema.rows(connection, "SELECT run FROM \(MariaDBSchema.lease) WHERE id = 1 AND run <> ?", [run]).first?.text(0)
    }

    /// Whether the write that takes the fencing generation past `generation` is `run`'s own: the
    /// generation is one past it and the lease row still names `run` (another runner would have
    /// taken the row, and bumped the generation, before writing). Asked when a write was sent again
    /// after the connection broke and the fence refused it: the first try had committed.
    static func wroteNext(after generation: Int64, run: String, on connection: MariaDBConnection) async throws(StoreError) -> Bool {
        let sql = "SELECT s.generation = ? + 1 AND l.run = ? FROM \(MariaDBSchema.state) s, \(MariaDBSchema.lease) l WHERE s.id = 1 AND l.id = 1"
        return try await MariaDBSchema.rows(connection, sql, [String(generation), run]).first?.isTrue(0) == true
    }

    /// Who holds the lease while it lasts; nil when it is free, lapsed, or not created yet.
    static func holder(on connection: MariaDBConnection) async throws(StoreError) -> LockHolder? {
        let sql = "SELECT run, pid, host, since FROM \(MariaDBSchema.lease) WHERE id = 1 AND expires_at >= NOW(6)"
        guard let row = try await MariaDBSchema.rowsIfCreated(connection, sql)?.first else { return nil }
        guard let since = row.text(3).flatMap(Timestamp.init) else {
            throw .io(location: connection.settings.location, reason: .malformed("the lease's `since` is not a timestamp: \(row.text(3) ?? "null")"))
        }
        return LockHolder(pid: row.int32(1) ?? 0, host: row.text(2) ?? "?", since: since, run: row.text(0) ?? "?")
    }
}

extension MariaDBLease: RenewableLease {
    var heldWhileSessionLives: Bool { false }

    var lossReason: String { "another runner took it over after it lapsed (this process was paused or cut off)" }

    /// `renew(run:on:)`: the lease is a row, so a new connection needs nothing taken back.
    func renew(run: String, on connection: MariaDBConnection, fresh: Bool) async throws -> Bool {
        try await renew(run: run, on: connection)
    }
}
