/// A database store whose lock this process holds: the one locked-store machine of the
/// PostgreSQL, MariaDB and SQLite stores over their dialect (`LockedSQLDialect`).
///
/// - Every checkpoint and journal append is fenced: a write checks the `Fence` this holder got
///   with the lock or its last write, so once another runner has taken the lock over (this one's
///   session was dropped, its lease lapsed during a long pause, or another process wrote the
///   database without the lock) this one's writes are refused instead of overwriting newer state.
/// - The step's transaction (`beginStepTransaction()`): the step's own writes and its checkpoint
///   commit together; a kill mid-step rolls both back.
/// - A write whose connection broke (a server restart, a fail-over, a pooler restart, an
///   idle-session killer) is sent again on a new connection (`CheckpointReconnection`), except the
///   one that ends a step's transaction, whose work went with the connection.
/// - The lease, when the lock is one (`LeaseKeeper`), is offered as `lease`.
package actor LockedSQLStore<Dialect: LockedSQLDialect>: TransactionalLockedStore, ExpiringLockedStore {
    private let dialect: Dialect
    /// The data connection; nil once released.
    private var connection: Dialect.Connection?
    /// The run holding the lock.
    private let run: String
    private let heartbeat: LeaseKeeper<Dialect.LockConnection>?
    /// What this holder's next write checks.
    private var fence: Dialect.Fence
    /// The completed steps as stored: a commit whose list extends them writes only the new ones.
    private var storedCompleted: [CompletedStep] = []
    /// True between `beginStepTransaction()` and the commit or rollback that ends it.
    private var inStepTransaction = false
    private let reconnection = CheckpointReconnection()

    /// The store of `dialect`, locked by `run`, its state and journal on `connection`; `heartbeat`
    /// keeps the lock's lease alive when it has one.
    package init(
        dialect: Dialect, connection: Dialect.Connection, fence: Dialect.Fence, run: String,
        heartbeat: LeaseKeeper<Dialect.LockConnection>?
    ) {
        self.dialect = dialect
        self.connection = connection
        self.fence = fence
        self.run = run
        self.heartbeat = heartbeat
    }

    /// Runs scripts on the data connection (`execute(script:)`).
    package nonisolated var scripts: StoreScripts? {
        StoreScripts(dialect: dialect.scriptDialect) { script in try await self.execute(script: script) }
    }

    /// `self` when the lock is a lease that can be lost while it is held; nil otherwise.
    package nonisolated var lease: (any ExpiringLockedStore)? { heartbeat == nil ? nil : self }

    /// Returns when the lock is lost: the lease could not be renewed or was taken over
    /// (`LeaseKeeper`); nil when the calling task is cancelled first.
    package nonisolated func lockLost() async -> LockLoss? {
        await heartbeat?.lost()
    }

    package func readState() async throws -> StoredState? {
        try await StatementCancellation.shielding {
            let (state, seen) = try await reconnecting(retry: !inStepTransaction) { connection, _ in
                try await dialect.readState(on: connection)
            }
            if let seen { fence = seen }
            storedCompleted = state?.completed ?? []
            return state
        }
    }

    /// In the step's transaction when one is open (it then ends with this commit), else in one of
    /// its own — none when the database writes a checkpoint that only adds completed steps as one
    /// statement.
    package func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        try await StatementCancellation.shielding {
            let completedFrom = state.completed.starts(with: storedCompleted) ? storedCompleted.count : nil
            let stepTransaction = inStepTransaction
            inStepTransaction = false
            try await write(
                state, completedFrom: completedFrom, journal: records, stepTransaction: stepTransaction,
                atomicAlone: completedFrom != nil && dialect.writesAreOneStatement)
            storedCompleted = state.completed
        }
    }

    /// In the step's transaction when one is open (records of the step's start then commit with
    /// its checkpoint), else on their own.
    package func append(_ records: [JournalRecord]) async throws {
        try await StatementCancellation.shielding {
            guard !records.isEmpty else { return }
            if inStepTransaction {
                guard try await dialect.appendInStepTransaction(records, fence: fence, on: data()) else { throw await fenced() }
                return
            }
            try await write(nil, completedFrom: nil, journal: records, stepTransaction: false, atomicAlone: dialect.writesAreOneStatement)
        }
    }

    /// Rolls back a step's transaction still open, frees the lock's row (on a new connection when
    /// the data connection broke, so a lease does not have to lapse after a long step), closes the
    /// data connection, then frees the rest of the lock.
    package func release() async {
        await StatementCancellation.shielding {
            guard let data = connection else { return }
            heartbeat?.stop()
            if inStepTransaction { await dialect.rollback(on: data) }
            inStepTransaction = false
            let run = run
            _ = try? await reconnecting(retry: true) { connection, _ in try await dialect.releaseLockRow(run: run, on: connection) }
            connection = nil
            await dialect.lockReleased()
        }
    }

    // MARK: - The step's transaction

    /// Opens the step's transaction; the step runs in it only when the state is still the one
    /// this holder planned from (`LockedSQLDialect.stepMayStart`).
    package func beginStepTransaction() async throws {
        try await StatementCancellation.shielding {
            let data = try data()
            try await dialect.begin(on: data)
            let mayStart: Bool
            do {
                mayStart = try await dialect.stepMayStart(fence: fence, on: data)
            } catch {
                await dialect.rollback(on: data)
                throw error
            }
            guard mayStart else {
                await dialect.rollback(on: data)
                throw await fenced()
            }
            inStepTransaction = true
        }
    }

    package func rollbackStepTransaction() async {
        await StatementCancellation.shielding {
            guard inStepTransaction, let data = connection else { return }
            inStepTransaction = false
            await dialect.rollback(on: data)
        }
    }

    /// Runs a step's script on the data connection, inside the step's transaction when one is
    /// open; then checks that the script left the transaction as it found it
    /// (`ScriptTransactionChange`).
    /// - returns: True when the script's implicit commit ended the step's transaction and the step
    ///   goes on without it (`LockedSQLDialect.scriptsCommitImplicitly`).
    /// - throws: the database's error; `SQLScriptFailure` when the script ended or opened a
    ///   transaction it may not.
    private func execute(script sql: String) async throws -> Bool {
        let data = try data()
        try await dialect.runScript(sql, on: data)
        let openAfter = await dialect.inTransaction(on: data)
        guard let change = ScriptTransactionChange(inStepTransaction: inStepTransaction, openAfter: openAfter) else {
            return false
        }
        switch change {
        case .endedStepTransaction:
            inStepTransaction = false
            if dialect.scriptsCommitImplicitly { return true }
        case .leftOpen:
            await dialect.rollback(on: data)
        }
        throw SQLScriptFailure(message: change.failure(transactionOption: dialect.scriptsChooseTransaction))
    }

    // MARK: - Internals

    /// Writes `state` (when given) and `records` as one fenced write: in the step's transaction
    /// when `stepTransaction`, as one statement when `atomicAlone`, else in a transaction of its
    /// own; commits it (or rolls it back when the fence refused or anything failed).
    private func write(
        _ state: StoredState?, completedFrom: Int?, journal records: [JournalRecord], stepTransaction: Bool, atomicAlone: Bool
    ) async throws {
        let expected = fence
        let (dialect, run) = (dialect, run)
        let inTransaction = stepTransaction || !atomicAlone
        let written: Dialect.Fence? = try await reconnecting(retry: !stepTransaction) { connection, retried in
            if inTransaction && !stepTransaction { try await dialect.begin(on: connection) }
            let written: Dialect.Fence?
            do {
                written = try await dialect.write(state, completedFrom: completedFrom, journal: records, fence: expected, on: connection)
                if inTransaction {
                    if written != nil { try await dialect.commit(on: connection) } else { await dialect.rollback(on: connection) }
                }
            } catch {
                if inTransaction { await dialect.rollback(on: connection) }
                throw error
            }
            // The connection broke after the server committed the first try of a checkpoint: that
            // write is this one. (Asked of checkpoints only: an append moves no generation, so a
            // moved one would be another write's, and the append itself would be lost.)
            if written == nil, retried, state != nil,
               let next = try await dialect.wroteNext(after: expected, run: run, on: connection) {
                return next
            }
            return written
        }
        guard let written else { throw await fenced() }
        fence = written
    }

    /// Runs `body` on the data connection, on a new one when it broke and `retry` allows
    /// (`CheckpointReconnection`). (The lock's connection is the heartbeat's to reopen.)
    private func reconnecting<Result: Sendable>(
        retry: Bool, _ body: nonisolated(nonsending) (Dialect.Connection, _ retried: Bool) async throws -> Result
    ) async throws -> Result {
        try await reconnection.run(retry: retry, reconnect: reconnect) { retried in try await body(data(), retried) }
    }

    /// Opens a new data connection, unless the lock was released meanwhile (a lost lease's
    /// release runs while a write waits to try again): the new connection then closes unused.
    private func reconnect() async throws {
        guard connection != nil, let fresh = try await dialect.reconnect(), connection != nil else { return }
        connection = fresh
    }

    private func fenced() async -> StoreError {
        guard let connection else { usedAfterRelease(dialect.location) }
        return await dialect.refusal(run: run, on: connection)
    }

    private func data() throws(StoreError) -> Dialect.Connection {
        guard let connection else {
            usedAfterRelease(dialect.location)
        }
        return connection
    }
}
