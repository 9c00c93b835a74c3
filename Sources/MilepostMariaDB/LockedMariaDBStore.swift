import Milepost

/// A MariaDB store whose lease this process holds (kept alive by its heartbeat on the lock
/// connection); state and journal go through the data connection.
///
/// Every write is one transaction that first locks the state row and checks the fencing
/// generation this holder got with the lease (`MariaDBSchema.write`): once another runner has
/// taken the lease over — this one was paused or cut off past its expiry — this one's writes are
/// refused instead of overwriting newer state.
actor LockedMariaDBStore: TransactionalLockedStore, ExpiringLockedStore {
    private let location: String
    /// The data connection; nil once released. (The lock connection is the heartbeat's.)
    private var connection: MariaDBConnection?
    private let run: String
    private let heartbeat: MariaDBHeartbeat
    /// The fencing generation this holder expects to find.
    private var generation: Int64
    /// True between `beginStepTransaction()` and the commit or rollback that ends it.
    private var inStepTransaction = false

    init(
        location: String, data: MariaDBConnection, generation: Int64, run: String, heartbeat: MariaDBHeartbeat
    ) {
        self.location = location
        connection = data
        self.generation = generation
        self.run = run
        self.heartbeat = heartbeat
    }

    nonisolated func lockLost() async -> LockLoss? {
        await heartbeat.lost()
    }

    func readState() async throws -> StoredState? {
        try await MariaDBSchema.readState(on: data())
    }

    /// One transaction: the one the step's transaction opened, else one of its own.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        let stepTransaction = inStepTransaction
        inStepTransaction = false
        generation = try await fenced(open: !stepTransaction) { connection, expected throws(StoreError) in
            try await MariaDBSchema.write(state, journal: records, ifGeneration: expected, on: connection)
        }
    }

    /// In the step's transaction when one is open (records of the step's start then go with it),
    /// else in one of its own.
    func append(_ records: [JournalRecord]) async throws {
        guard !records.isEmpty else { return }
        let connection = try data()
        if inStepTransaction {
            try await MariaDBSchema.append(records, on: connection)
            return
        }
        _ = try await fenced(open: true) { connection, expected throws(StoreError) in
            try await MariaDBSchema.write(nil, journal: records, ifGeneration: expected, on: connection)
        }
    }

    /// Rolls back a step's transaction still open, frees the lease row (best effort: a lease
    /// lapses anyway) and closes the data connection.
    func release() async {
        guard let data = connection else { return }
        heartbeat.stop()
        if inStepTransaction { await data.rollback() }
        inStepTransaction = false
        try? await MariaDBLease.release(run: run, on: data)
        connection = nil
    }

    // MARK: - The step's transaction

    func beginStepTransaction() async throws {
        try await MariaDBSchema.run(data(), "BEGIN")
        inStepTransaction = true
    }

    func rollbackStepTransaction() async {
        guard inStepTransaction, let data = connection else { return }
        inStepTransaction = false
        await data.rollback()
    }

    /// Runs a step's SQL script on the data connection, in the step's transaction. DDL (and a
    /// COMMIT in the script) commits that transaction implicitly: what ran before it is then
    /// committed on its own, not with the checkpoint, and the checkpoint gets a transaction of its
    /// own. A BEGIN left open by a script run outside a step's transaction is rolled back.
    /// - returns: True when the script ended the step's transaction (so it was not atomic).
    /// - throws: the server's error as `MySQLStep.Failure`, so the step fails with it.
    func execute(stepSQL sql: String) async throws -> Bool {
        let connection = try data()
        do {
            try await connection.run(sql)
        } catch {
            if error.connectionLost { throw error.storeError(location) }
            throw MySQLStep.Failure(message: "\(error.message) (error \(error.code))")
        }
        let open = await connection.inTransaction()
        if inStepTransaction, !open {
            inStepTransaction = false
            return true
        }
        if !inStepTransaction, open {
            await connection.rollback()
            throw MySQLStep.Failure(message: "the script left a transaction open (a BEGIN without its COMMIT), which was rolled back; remove BEGIN")
        }
        return false
    }

    // MARK: - Internals

    /// Runs `write` in a transaction (opened first when `open`, else the step's, already open)
    /// with the generation this holder expects, and commits it; rolls back when anything fails.
    /// - returns: The generation after the write.
    /// - throws: the fence's refusal when another runner took the lease.
    private func fenced(
        open: Bool, _ write: (MariaDBConnection, Int64) async throws(StoreError) -> Int64?
    ) async throws(StoreError) -> Int64 {
        let connection = try data()
        do throws(StoreError) {
            if open { try await MariaDBSchema.run(connection, "BEGIN") }
            guard let written = try await write(connection, generation) else {
                await connection.rollback()
                let now = try? await MariaDBLease.takenOver(from: run, on: connection)
                throw StoreError.io(
                    location: location,
                    reason: .other("checkpoint refused by the fence: run \(now ?? "?") took the lock after this run "
                        + "(\(run)) lost it (its lease lapsed); nothing was written. Run `milepost status` to see the stored state"))
            }
            try await MariaDBSchema.run(connection, "COMMIT")
            return written
        } catch {
            await connection.rollback()
            throw error
        }
    }

    private func data() throws(StoreError) -> MariaDBConnection {
        guard let connection else {
            preconditionFailure("a LockedStore of \(location) was used after release()")
        }
        return connection
    }
}
