import Milepost

/// A MariaDB store whose lease this process holds (kept alive by its heartbeat on the lock
/// connection); state and journal go through the data connection.
///
/// Every write is one transaction that first locks the state row and checks the fencing
/// generation this holder got with the lease (`MariaDBSchema.write`): once another runner has
/// taken the lease over — this one was paused or cut off past its expiry — this one's writes are
/// refused instead of overwriting newer state. So a write is sent again on a new data connection
/// when the connection broke (`CheckpointReconnection`: `wait_timeout` closed it while a long step
/// ran, a `KILL`, a server restart), and the lease is released on a live one.
actor LockedMariaDBStore: TransactionalLockedStore, ExpiringLockedStore {
    private let settings: MariaDBSettings
    /// The data connection; nil once released. (The lock connection is the heartbeat's.)
    private var connection: MariaDBConnection?
    private let run: String
    private let heartbeat: LeaseKeeper<MariaDBConnection>
    /// The fencing generation this holder expects to find.
    private var generation: Int64
    /// True between `beginStepTransaction()` and the commit or rollback that ends it.
    private var inStepTransaction = false
    /// How writes go on when the data connection breaks.
    private let reconnection = CheckpointReconnection()

    init(data: MariaDBConnection, generation: Int64, run: String, heartbeat: LeaseKeeper<MariaDBConnection>) {
        settings = data.settings
        connection = data
        self.generation = generation
        self.run = run
        self.heartbeat = heartbeat
    }

    /// `execute(stepSQL:)`, for the `mysql` step.
    nonisolated var scripts: StoreScripts? {
        StoreScripts(dialect: .mariadb) { script in try await self.execute(stepSQL: script) }
    }

    nonisolated func lockLost() async -> LockLoss? {
        await heartbeat.lost()
    }

    func readState() async throws -> StoredState? {
        try await reconnecting(retry: !inStepTransaction) { connection, _ in try await MariaDBSchema.readState(on: connection) }
    }

    /// One transaction: the one the step's transaction opened, else one of its own — sent again on
    /// a new connection when the connection broke, except the one that ends a step's own
    /// transaction, whose work went with the connection.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        let stepTransaction = inStepTransaction
        inStepTransaction = false
        let expected = generation
        let written: Int64? = try await reconnecting(retry: !stepTransaction) { connection, retried in
            let written = try await Self.transaction(open: !stepTransaction, on: connection) { () throws(StoreError) in
                try await MariaDBSchema.write(state, journal: records, ifGeneration: expected, on: connection)
            }
            if written == nil, retried, try await MariaDBLease.wroteNext(after: expected, run: run, on: connection) {
                // The connection broke after the server committed the first try: that write is this one.
                return expected + 1
            }
            return written
        }
        guard let written else { throw await fenced() }
        generation = written
    }

    /// In the step's transaction when one is open (records of the step's start then go with it),
    /// else in one of its own.
    func append(_ records: [JournalRecord]) async throws {
        guard !records.isEmpty else { return }
        if inStepTransaction {
            try await MariaDBSchema.append(records, on: data())
            return
        }
        let expected = generation
        let appended = try await reconnecting(retry: true) { connection, _ in
            try await Self.transaction(open: true, on: connection) { () throws(StoreError) in
                try await MariaDBSchema.write(nil, journal: records, ifGeneration: expected, on: connection)
            }
        }
        guard appended != nil else { throw await fenced() }
    }

    /// Rolls back a step's transaction still open, frees the lease row (on a new connection when
    /// the data connection broke, so the lease does not have to lapse after a long step) and
    /// closes the data connection.
    func release() async {
        guard let data = connection else { return }
        heartbeat.stop()
        if inStepTransaction { await data.rollback() }
        inStepTransaction = false
        _ = try? await reconnecting(retry: true) { connection, _ in try await MariaDBLease.release(run: run, on: connection) }
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
            if error.connectionLost { throw error.storeError(settings.location) }
            throw MySQLStep.Failure(message: "\(error.message) (error \(error.code))")
        }
        let openAfter = await connection.inTransaction()
        switch ScriptTransactionChange(inStepTransaction: inStepTransaction, openAfter: openAfter) {
        case nil:
            return false
        case .endedStepTransaction?:
            // DDL commits implicitly: the step goes on, its checkpoint in a transaction of its own.
            inStepTransaction = false
            return true
        case .leftOpen?:
            await connection.rollback()
            throw MySQLStep.Failure(message: ScriptTransactionChange.leftOpen.failure(transactionOption: false))
        }
    }

    // MARK: - Internals

    /// Runs `write` in a transaction (opened first when `open`, else the step's, already open)
    /// and commits it when it wrote; rolls back when the fence refused or anything failed.
    /// - returns: What `write` returned: the generation after the write, nil when the fence refused.
    private static func transaction(
        open: Bool, on connection: MariaDBConnection, _ write: () async throws(StoreError) -> Int64?
    ) async throws(StoreError) -> Int64? {
        do throws(StoreError) {
            if open { try await MariaDBSchema.run(connection, "BEGIN") }
            guard let written = try await write() else {
                await connection.rollback()
                return nil
            }
            try await MariaDBSchema.run(connection, "COMMIT")
            return written
        } catch {
            await connection.rollback()
            throw error
        }
    }

    /// Runs `body` on the data connection, on a new one when it broke and `retry` allows
    /// (`CheckpointReconnection`). (The lock connection is the heartbeat's to reopen.)
    private func reconnecting<Result: Sendable>(
        retry: Bool, _ body: (MariaDBConnection, _ retried: Bool) async throws -> Result
    ) async throws -> Result {
        try await reconnection.run(retry: retry, reconnect: reconnect) { retried in try await body(data(), retried) }
    }

    /// Opens a new data connection.
    private func reconnect() async throws {
        guard connection != nil else { return }
        connection = try await MariaDBSchema.dataConnection(settings)
    }

    /// The refusal, naming this run and the one that took the lease after it.
    private func fenced() async -> StoreError {
        let now = try? await MariaDBLease.takenOver(from: run, on: data())
        return FenceRefusal.error(location: settings.location, run: run, taker: now, howLost: "its lease lapsed")
    }

    private func data() throws(StoreError) -> MariaDBConnection {
        guard let connection else {
            usedAfterRelease(settings.location)
        }
        return connection
    }
}
