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
    /// Keeps the lease alive; nil for the session lock, which lasts as long as its session.
    private let heartbeat: LeaseHeartbeat?
    /// The fencing generation this holder expects to find.
    private var generation: Int64
    /// The completed steps as stored: a commit whose list extends them inserts only the new ones.
    private var storedCompleted: [CompletedStep] = []
    /// True between `beginStepTransaction()` and the commit or rollback that ends it.
    private var inStepTransaction = false

    init(
        store: PostgresStore, lock: PostgresSession, data: PostgresSession, generation: Int64, run: String,
        heartbeat: LeaseHeartbeat?
    ) {
        self.store = store
        self.sessions = (lock, data)
        self.generation = generation
        self.run = run
        self.heartbeat = heartbeat
    }

    /// Returns when the lease is lost; the session lock is never lost this way (its loss shows at
    /// the next checkpoint, refused by the fence), so for it this returns only on cancellation.
    nonisolated func lockLost() async -> LockLoss? {
        if let heartbeat { return await heartbeat.lost() }
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        return nil
    }

    func readState() async throws -> StoredState? {
        let state = try await store.queries.read(on: data()).state
        storedCompleted = state?.completed ?? []
        return state
    }

    /// One statement when it can (it is then atomic by itself), a transaction when the step's own
    /// transaction is open or the completed steps must be rewritten.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        let data = try data()
        let appending = state.completed.starts(with: storedCompleted)
        let from = appending ? storedCompleted.count : 0
        let written: Int64?
        if inStepTransaction || !appending {
            if !inStepTransaction { try await data.query("BEGIN") }
            inStepTransaction = false
            do {
                if !appending { try await store.queries.clearCompleted(on: data) }
                written = try await store.queries.write(
                    state, completedFrom: from, journal: records, ifGeneration: generation, on: data)
                if written != nil { try await data.query("COMMIT") } else { await data.rollback() }
            } catch {
                await data.rollback()
                throw error
            }
        } else {
            written = try await store.queries.write(
                state, completedFrom: from, journal: records, ifGeneration: generation, on: data)
        }
        guard let written else { throw await fenced() }
        generation = written
        storedCompleted = state.completed
    }

    func append(_ records: [JournalRecord]) async throws {
        guard !records.isEmpty else { return }
        guard try await store.queries.append(records, ifGeneration: generation, on: data()) else { throw await fenced() }
    }

    func release() async {
        guard let (lock, data) = sessions else { return }
        sessions = nil
        heartbeat?.stop()
        if inStepTransaction { await data.rollback() }
        await LockRow.release(store.tables, run: run, on: data)
        if heartbeat == nil { await store.advisoryLock.release(on: lock) }
    }

    // MARK: - The step's transaction

    func beginStepTransaction() async throws {
        try await data().query("BEGIN")
        inStepTransaction = true
    }

    func rollbackStepTransaction() async {
        guard inStepTransaction, let (_, data) = sessions else { return }
        inStepTransaction = false
        await data.rollback()
    }

    /// Runs a step's SQL script on the data session: inside the step's transaction when one is
    /// open, else as the server runs a script sent on its own.
    /// - throws: the server's error as `PGQueryFailure`, so the step fails with it.
    func execute(stepSQL sql: String) async throws {
        try await data().connection.execute(sql)
    }

    // MARK: - Internals

    private func data() throws -> PostgresSession {
        guard let sessions else {
            preconditionFailure("a LockedStore of \(store.location) was used after release()")
        }
        return sessions.data
    }

    /// The refusal, naming this run and the one that took the lock after it: the run that
    /// journaled taking it over from this one, else the one the lock row names.
    private func fenced() async -> StoreError {
        let now = try? await LockRow.takenOver(from: run, store.tables, on: data())
        return .io(
            location: store.location,
            reason: .other("checkpoint refused by the fence: run \(now ?? "?") took the lock after this run "
                + "(\(run)) lost it (its lock session was lost or its lease lapsed); nothing was written. "
                + "Run `milepost status` to see the stored state"))
    }
}
