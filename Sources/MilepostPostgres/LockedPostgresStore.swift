import Milepost

/// A PostgreSQL store whose lock this process holds — the session advisory lock, through the lock
/// session, or a lease kept alive by its heartbeat; state and journal go through the data session.
///
/// Fencing: taking the lock bumped the state's generation and handed this holder the new value.
/// Every write is a compare-and-set on it (and bumps it again), so once another runner has taken
/// the lock — because this one's session was dropped by a partition, or its lease lapsed during a
/// long pause — this one's writes are refused instead of overwriting newer state.
actor LockedPostgresStore: TransactionalLockedStore, ExpiringLockedStore {
    private let store: PostgresStore
    private var sessions: (lock: PostgresSession, data: PostgresSession)?
    /// The run holding the lock (its row in the `lease` table).
    private let run: String
    private let kind: LockKind
    /// Keeps the lock row's expiry alive (the lease, or the session lock's hold) and watches the
    /// lock session.
    private let heartbeat: LeaseKeeper<PostgresSession>
    /// The fencing generation this holder expects to find.
    private var generation: Int64
    /// The completed steps as stored: a commit whose list extends them inserts only the new ones.
    private var storedCompleted: [CompletedStep] = []
    /// True between `beginStepTransaction()` and the commit or rollback that ends it.
    private var inStepTransaction = false
    /// How writes go on when the data session breaks.
    private let reconnection = CheckpointReconnection()

    init(
        store: PostgresStore, kind: LockKind, lock: PostgresSession, data: PostgresSession, generation: Int64,
        run: String, heartbeat: LeaseKeeper<PostgresSession>
    ) {
        self.store = store
        self.kind = kind
        self.sessions = (lock, data)
        self.generation = generation
        self.run = run
        self.heartbeat = heartbeat
    }

    /// Returns when the lock is lost: the lease could not be renewed or was taken over, or the
    /// session lock's session ended and the lock could not be taken back (`LeaseKeeper`).
    /// `execute(stepSQL:)`, for the `sql` step.
    nonisolated var scripts: StoreScripts? {
        StoreScripts(dialect: .postgresql) { script in
            try await self.execute(stepSQL: script)
            return false
        }
    }

    nonisolated func lockLost() async -> LockLoss? {
        await heartbeat.lost()
    }

    func readState() async throws -> StoredState? {
        let state = try await reconnecting(retry: !inStepTransaction) { data, _ in try await store.queries.read(on: data).state }
        storedCompleted = state?.completed ?? []
        return state
    }

    /// One statement when it can (it is then atomic by itself), a transaction when the step's own
    /// transaction is open or the completed steps must be rewritten. When the connection breaks
    /// (a server restart, a fail-over, a pooler restart, an idle-session killer) the checkpoint is
    /// written again on a new connection (`reconnecting`) — except the one that ends a step's own
    /// transaction, whose work went with the connection.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        let appending = state.completed.starts(with: storedCompleted)
        let from = appending ? storedCompleted.count : 0
        let stepTransaction = inStepTransaction
        inStepTransaction = false
        let expected = generation
        let written: Int64? = try await reconnecting(retry: !stepTransaction) { data, retried in
            let written: Int64?
            if stepTransaction || !appending {
                if !stepTransaction { try await data.begin() }
                do {
                    if !appending { try await store.queries.clearCompleted(on: data) }
                    written = try await store.queries.write(
                        state, completedFrom: from, journal: records, ifGeneration: expected, on: data)
                    if written != nil { try await data.query("COMMIT") } else { await data.rollback() }
                } catch {
                    await data.rollback()
                    throw error
                }
            } else {
                written = try await store.queries.write(
                    state, completedFrom: from, journal: records, ifGeneration: expected, on: data)
            }
            if written == nil, retried, try await LockRow.wroteNext(after: expected, run: run, store.tables, on: data) {
                // The connection broke after the server committed the first try: that write is this one.
                return expected + 1
            }
            return written
        }
        guard let written else { throw await fenced() }
        generation = written
        storedCompleted = state.completed
    }

    func append(_ records: [JournalRecord]) async throws {
        guard !records.isEmpty else { return }
        let expected = generation
        let appended = try await reconnecting(retry: true) { data, _ in
            try await store.queries.append(records, ifGeneration: expected, on: data)
        }
        guard appended else { throw await fenced() }
    }

    /// Frees the lock row (on a new connection when the data session broke, so a lease does not
    /// have to lapse after a restart) and the advisory lock.
    func release() async {
        guard let (lock, data) = sessions else { return }
        heartbeat.stop()
        if inStepTransaction { await data.rollback() }
        inStepTransaction = false
        _ = try? await reconnecting(retry: true) { data, _ in try await LockRow.release(store.tables, run: run, on: data) }
        sessions = nil
        if kind == .session { await store.advisoryLock.release(on: lock) }
    }

    // MARK: - The step's transaction

    func beginStepTransaction() async throws {
        try await data().begin()
        inStepTransaction = true
    }

    func rollbackStepTransaction() async {
        guard inStepTransaction, let (_, data) = sessions else { return }
        inStepTransaction = false
        await data.rollback()
    }

    /// Runs a step's SQL script on the data session: inside the step's transaction when one is
    /// open, else as the server runs a script sent on its own. Then checks that the script left the
    /// connection's transaction as it found it (`PQtransactionStatus`): a COMMIT or ROLLBACK in a
    /// script run in the step's transaction ended it — its first statements are then durable, or
    /// undone, while the checkpoint would record the step as done — and a BEGIN without an end in
    /// a script of its own would carry the following checkpoints into its transaction.
    /// - throws: the server's error as `PGQueryFailure`, so the step fails with it;
    ///   `SQLStep.Failure` when the script left or opened a transaction.
    func execute(stepSQL sql: String) async throws {
        let data = try data()
        try await data.connection.execute(sql)
        let openAfter = await data.connection.inTransaction()
        guard let change = ScriptTransactionChange(inStepTransaction: inStepTransaction, openAfter: openAfter) else { return }
        switch change {
        case .endedStepTransaction: inStepTransaction = false
        case .leftOpen: await data.rollback()
        }
        throw SQLStep.Failure(message: change.failure(transactionOption: true))
    }

    // MARK: - Internals

    /// Runs `body` on the data session, on a new one when the connection broke and `retry` allows
    /// (`CheckpointReconnection`). (The lock session is the heartbeat's to reopen: `LeaseKeeper`.)
    private func reconnecting<Result: Sendable>(
        retry: Bool, _ body: (PostgresSession, _ retried: Bool) async throws -> Result
    ) async throws -> Result {
        try await reconnection.run(retry: retry, reconnect: reconnect) { retried in try await body(data(), retried) }
    }

    /// Opens a new data session.
    private func reconnect() async throws {
        guard let (lock, _) = sessions else { return }
        let data = try await PostgresSession.open(store.settings)
        if !(try await data.isBehindPooler()) { try await data.checkClientConnection() }
        sessions = (lock, data)
    }

    private func data() throws -> PostgresSession {
        guard let sessions else {
            usedAfterRelease(store.location)
        }
        return sessions.data
    }

    /// The refusal, naming this run and the one that took the lock after it: the run that
    /// journaled taking it over from this one, else the one the lock row names.
    private func fenced() async -> StoreError {
        let now = try? await LockRow.takenOver(from: run, store.tables, on: data())
        return FenceRefusal.error(
            location: store.location, run: run, taker: now, howLost: "its lock session was lost or its lease lapsed")
    }
}
