import MilepostSystem

/// The durable record of one step's attempts: what the state and the journal say before an attempt
/// starts and after it ends, committed together.
///
/// Before an attempt the state marks the step in progress (so a crash leaves it interrupted), unless
/// the step runs inside the store's checkpoint transaction: then its work and its checkpoint commit
/// together, and the `step-started` record waits for that commit.
struct StepCheckpoint {
    let step: ManifestStep
    let store: any LockedStore
    let journal: RunJournal
    /// The store's transaction, when the step's work runs inside its checkpoint.
    let transaction: (any TransactionalLockedStore)?
    /// Records that wait for the commit that ends the attempt.
    private var pending: [JournalRecord] = []

    init(step: ManifestStep, store: any LockedStore, journal: RunJournal, transaction: (any TransactionalLockedStore)?) {
        self.step = step
        self.store = store
        self.journal = journal
        self.transaction = transaction
    }

    /// Before attempt number `attempt`: the step is in progress (or its transaction is open).
    mutating func begin(attempt: Int, state: inout StoredState) async throws {
        let started = journal.record(.stepStarted, step: step.id, attempt: attempt)
        if let transaction {
            try await transaction.beginStepTransaction()
            pending = [started]
        } else {
            state.inProgress = InProgressStep(
                id: step.id, run: journal.run, since: Timestamp.now(), attempt: attempt,
                host: ProcessIdentity.host, pid: ProcessIdentity.pid)
            state.updatedAt = Timestamp.now()
            pending = []
            try await store.commit(state, journal: [started])
        }
    }

    /// The attempt succeeded: the step is completed (and no longer failed).
    mutating func succeeded(attempt: Int, durationMs: Int, state: inout StoredState) async throws {
        state.inProgress = nil
        if state.failed?.id == step.id { state.failed = nil }
        state.completed.append(CompletedStep(id: step.id, at: Timestamp.now(), run: journal.run, fingerprint: step.fingerprint))
        try await end(state: &state, with: journal.record(.stepSucceeded, step: step.id, attempt: attempt, durationMs: durationMs))
    }

    /// The run was cancelled during the attempt. The step may have done part of its work: it stays in
    /// progress, so the next run stops at it unless it is idempotent.
    mutating func interrupted(attempt: Int, durationMs: Int, error: String, state: inout StoredState) async throws {
        await transaction?.rollbackStepTransaction()
        try await end(state: &state, with: journal.record(
            .stepInterrupted, step: step.id, attempt: attempt, durationMs: durationMs, error: error))
    }

    /// The attempt failed; when it was the `last` one, the step is recorded as failed.
    mutating func failed(attempt: Int, durationMs: Int, error: String, last: Bool, state: inout StoredState) async throws {
        await transaction?.rollbackStepTransaction()
        state.inProgress = nil
        if last { state.failed = FailedStep(id: step.id, run: journal.run, at: Timestamp.now(), error: error) }
        try await end(state: &state, with: journal.record(
            .stepFailed, step: step.id, attempt: attempt, durationMs: durationMs, error: error))
    }

    /// A signal stopped the run during the back-off before a retry: no further attempt starts, and as
    /// nothing runs the step is not in progress; it stays failed with the last attempt's `error`.
    func retriesStopped(error: String, state: inout StoredState) async throws {
        state.failed = FailedStep(id: step.id, run: journal.run, at: Timestamp.now(), error: error)
        state.updatedAt = Timestamp.now()
        try await store.commit(state, journal: [])
    }

    /// Runs `record`, the checkpoint that ends an attempt which ended as `outcome`. When the store
    /// fails to write it, the step's work is done (or its failure final) but the store still says
    /// in progress: the error says so. A step whose work shares the store's transaction has no such
    /// gap (the failed commit undid its work too), so its store error is thrown as it is.
    mutating func recording(
        _ outcome: UnrecordedStepOutcome.Outcome?, _ record: (inout StepCheckpoint) async throws -> Void
    ) async throws {
        do {
            try await record(&self)
        } catch let error as StoreError {
            guard transaction == nil, let outcome else { throw error }
            throw UnrecordedStepOutcome(step: step.id, outcome: outcome, storeError: error)
        }
    }

    private mutating func end(state: inout StoredState, with record: JournalRecord) async throws {
        state.updatedAt = Timestamp.now()
        let records = pending + [record]
        pending = []
        try await store.commit(state, journal: records)
    }
}
