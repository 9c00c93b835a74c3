import Milepost

/// A MariaDB store whose lease this process holds: the locked SQL store (`LockedSQLStore`) over
/// MariaDB's dialect. The lease is kept alive by its heartbeat on the lock connection; state and
/// journal go through the data connection.
typealias LockedMariaDBStore = LockedSQLStore<MariaDBDialect>

/// The MariaDB store's part of a locked store. Every write is one transaction that first locks the
/// state row and checks the fencing generation this holder got with the lease
/// (`MariaDBSchema.write`); DDL in a `mysql` step's script commits the step's transaction
/// implicitly and the step goes on (see docs/store.md).
struct MariaDBDialect: LockedSQLDialect {
    let settings: MariaDBSettings

    var location: String { settings.location }
    var scriptDialect: ScriptDialect { .mariadb }
    var scriptsCommitImplicitly: Bool { true }
    var scriptsChooseTransaction: Bool { false }
    var writesAreOneStatement: Bool { false }

    nonisolated(nonsending) func begin(on connection: MariaDBConnection) async throws {
        try await MariaDBSchema.run(connection, "BEGIN")
    }

    nonisolated(nonsending) func commit(on connection: MariaDBConnection) async throws {
        try await MariaDBSchema.run(connection, "COMMIT")
    }

    nonisolated(nonsending) func rollback(on connection: MariaDBConnection) async {
        await connection.rollback()
    }

    nonisolated(nonsending) func inTransaction(on connection: MariaDBConnection) async -> Bool {
        await connection.inTransaction()
    }

    nonisolated(nonsending) func readState(on connection: MariaDBConnection) async throws -> (state: StoredState?, fence: Int64?) {
        (try await MariaDBSchema.readState(on: connection), nil)
    }

    nonisolated(nonsending) func write(
        _ state: StoredState?, completedFrom: Int?, journal records: [JournalRecord], fence: Int64, on connection: MariaDBConnection
    ) async throws -> Int64? {
        try await MariaDBSchema.write(state, journal: records, ifGeneration: fence, on: connection)
    }

    /// Unfenced: the step's transaction is checked by the checkpoint that commits it.
    nonisolated(nonsending) func appendInStepTransaction(_ records: [JournalRecord], fence: Int64, on connection: MariaDBConnection) async throws -> Bool {
        try await MariaDBSchema.append(records, on: connection)
        return true
    }

    nonisolated(nonsending) func wroteNext(after fence: Int64, run: String, on connection: MariaDBConnection) async throws -> Int64? {
        try await MariaDBLease.wroteNext(after: fence, run: run, on: connection) ? fence + 1 : nil
    }

    /// Names this run and the one that took the lease after it.
    nonisolated(nonsending) func refusal(run: String, on connection: MariaDBConnection) async -> StoreError {
        let taker = try? await MariaDBLease.takenOver(from: run, on: connection)
        return FenceRefusal.error(location: location, run: run, taker: taker ?? nil, howLost: "its lease lapsed")
    }

    /// The server's error as `SQLScriptFailure`, so the step fails with it; a lost connection as
    /// the store's.
    nonisolated(nonsending) func runScript(_ sql: String, on connection: MariaDBConnection) async throws {
        do {
            try await connection.run(sql)
        } catch {
            if error.connectionLost { throw error.storeError(location) }
            throw SQLScriptFailure(message: "\(error.message) (error \(error.code))")
        }
    }

    nonisolated(nonsending) func reconnect() async throws -> MariaDBConnection? {
        try await MariaDBSchema.dataConnection(settings)
    }

    nonisolated(nonsending) func releaseLockRow(run: String, on connection: MariaDBConnection) async throws {
        try await MariaDBLease.release(run: run, on: connection)
    }
}
