import MilepostSystem

/// The durable record of one step's attempts: what the state and the journal say before an attempt
/// starts, when it commits a cursor, and after it ends. Owns the state while the step is applied.
///
/// Before an attempt the state marks the step in progress (so a crash leaves it interrupted), unless
/// the step runs inside the store's checkpoint transaction: then its work and its checkpoint commit
/// together, and the `step-started` record waits for that commit. A cursor commit in that
/// transaction commits the step's work with the cursor and opens the next transaction.
///
/// The same checkpoints record a step's revert (`direction` `.revert`): `revert-*` records, marks
/// that say `direction: revert`, and a success that takes the step out of the completed steps.
actor StepCheckpoint: AttemptRecord {
    let step: ManifestStep
    /// Whether the step's body or its revert is applied.
    let direction: StepDirection
    let store: any LockedStore
    let journal: RunJournal
    /// The run's commit points: every write below passes through them.
    let points: CommitPoints
    /// The store's transaction, when the step's work runs inside its checkpoint.
    let transaction: (any TransactionalLockedStore)?
    /// The state, as last committed or about to be.
    private(set) var state: StoredState
    /// The last durable cursor of the step: where its next attempt resumes.
    private(set) var cursor: String?
    /// Records that wait for the commit that ends the attempt.
    private var pending: [JournalRecord] = []
    /// The attempt whose cursors are taken; nil between attempts.
    private var openAttempt: Int?
    /// The tail of the step's stderr in the last attempt (`StepOutputTail`).
    private(set) var stderrTail: String?
    /// The attempt's first progress report (when, and the count then), for the rate.
    private var progressStart: (at: ContinuousClock.Instant, completed: Int)?
    /// When the attempt's progress was last written to the store.
    private var progressWritten: ContinuousClock.Instant?
    /// The attempt's last progress report, written with the next cursor too.
    private var latestProgress: StepProgress?

    init(
        step: ManifestStep, store: any LockedStore, journal: RunJournal, points: CommitPoints,
        transaction: (any TransactionalLockedStore)?, state: StoredState, direction: StepDirection = .forward
    ) {
        self.step = step
        self.direction = direction
        self.store = store
        self.journal = journal
        self.points = points
        self.transaction = transaction
        self.state = state
        cursor = if direction == .revert { nil }
            else if let mark = state.interruptedMark(of: step.id) { mark.cursor }
            else { state.failure(of: step.id)?.cursor }
    }

    /// Before attempt number `attempt`: the step is in progress (or its transaction is open), at
    /// the cursor it resumes from.
    func begin(attempt: Int) async throws {
        let started = journal.record(
            direction == .forward ? .stepStarted : .revertStarted, step: step.id, attempt: attempt, cursor: cursor, phase: step.phase)
        stderrTail = nil
        progressStart = nil
        progressWritten = nil
        latestProgress = nil
        if let transaction {
            try await transaction.beginStepTransaction()
            pending = [started]
        } else {
            state.markInProgress(mark(attempt: attempt))
            state.updatedAt = Timestamp.now()
            pending = []
            try await points.pass(.stepStarted, step: step.id) { try await store.commit(state, journal: [started]) }
        }
        openAttempt = attempt
    }

    /// The step's cursor, durable when this returns.
    /// - throws: `CancellationError` when no attempt is open (the step outlived its attempt).
    func commitCursor(_ text: String) async throws {
        guard let attempt = openAttempt else { throw CancellationError() }
        guard direction == .forward else { throw RevertCursorError() }
        if state.inProgress?.id != step.id { state.markInProgress(mark(attempt: attempt)) }
        state.inProgress?.cursor = text
        if let latestProgress { state.inProgress?.progress = latestProgress }
        state.updatedAt = Timestamp.now()
        let records = pending
        pending = []
        try await points.pass(.cursor, step: step.id) { try await store.commit(state, journal: records) }
        cursor = text
        try await transaction?.beginStepTransaction()
    }

    /// The process group the step's work runs in, in its in-progress mark when this returns: a
    /// `.process` commit, durable against the runner's death, not a power cut, which the group does
    /// not outlive either. A step whose work runs in the store's transaction has no mark: nothing is
    /// written for it.
    /// - throws: `CancellationError` when no attempt is open (the step outlived its attempt).
    func recordProcessGroup(_ group: Int32) async throws {
        guard openAttempt != nil else { throw CancellationError() }
        guard transaction == nil, state.inProgress?.id == step.id else { return }
        state.inProgress?.processGroup = .here(group)
        state.updatedAt = Timestamp.now()
        try await points.pass(.processGroup, step: step.id) {
            try await store.commit(state, journal: [], durability: .process)
        }
    }

    /// Takes the step's progress: always returned (for the terminal); written to the state with a
    /// `step-progress` record when `interval` has passed since the last write (the first at once),
    /// unless the step's work is in the store's transaction, whose commit would carry it.
    /// - returns: nil once the attempt has ended.
    func reportProgress(_ completed: Int, total: Int?, message: String?, interval: Duration) async throws -> StepProgress? {
        guard let attempt = openAttempt else { return nil }
        let now = ContinuousClock.now
        let start = progressStart ?? (now, completed)
        progressStart = start
        let seconds = Double(DurationText.milliseconds(now - start.at)) / 1000
        let rate = seconds > 0 && completed > start.completed ? Double(completed - start.completed) / seconds : nil
        let progress = StepProgress(completed: completed, total: total, message: message, at: Timestamp.now(), rate: rate)
        latestProgress = progress
        guard transaction == nil, state.inProgress?.id == step.id, progressWritten.map({ now - $0 >= interval }) ?? true else {
            return progress
        }
        progressWritten = now
        state.inProgress?.progress = progress
        state.updatedAt = Timestamp.now()
        let record = journal.record(.stepProgress, step: step.id, attempt: attempt, progress: progress)
        try await points.pass(.progress, step: step.id) { try await store.commit(state, journal: [record]) }
        return progress
    }

    /// Keeps the tail of the step's stderr for the record that ends the attempt.
    func recordStderrTail(_ tail: String) {
        guard openAttempt != nil else { return }
        stderrTail = StepOutputTail.bounded(tail)
    }

    /// The attempt succeeded: the step is completed (and no longer failed); a revert takes it (and
    /// the step it `replaces`) out of the completed steps, so a later run runs it again.
    func succeeded(attempt: Int, durationMs: Int) async throws {
        openAttempt = nil
        // Journaled with the duration too, so that history tells runs of this entry from an earlier one's.
        var fingerprint: String?
        switch direction {
        case .forward:
            let current = step.fingerprint
            fingerprint = current
            // A repeatable step keeps one record, its last: the fingerprint its next run compares with.
            state.recordCompleted(
                CompletedStep(id: step.id, at: Timestamp.now(), run: journal.run, fingerprint: current),
                phase: step.phase, replacing: step.repeats != nil)
        case .revert:
            state.clearMarks(of: step.id)
            state.completed.removeAll { $0.id == step.id || $0.id == step.replaces }
        }
        cursor = nil
        try await end(with: journal.record(
            direction == .forward ? .stepSucceeded : .revertSucceeded, step: step.id, attempt: attempt, durationMs: durationMs,
            fingerprint: fingerprint),
            unrecorded: .succeeded)
    }

    /// The run was cancelled during the attempt. The step may have done part of its work: it stays in
    /// progress, so the next run stops at it unless it is idempotent or resumes at its cursor.
    func interrupted(attempt: Int, durationMs: Int, error: String) async throws {
        openAttempt = nil
        await transaction?.rollbackStepTransaction()
        if state.inProgress?.id == step.id { state.inProgress?.stderr = stderrTail }
        try await end(with: journal.record(
            direction == .forward ? .stepInterrupted : .revertInterrupted, step: step.id, attempt: attempt, durationMs: durationMs, error: error, stderr: stderrTail),
            unrecorded: nil)
    }

    /// The attempt failed; when it was the `last` one, the step is recorded as failed, with its cursor.
    func failed(attempt: Int, durationMs: Int, error: String, last: Bool) async throws {
        openAttempt = nil
        await transaction?.rollbackStepTransaction()
        state.clearInProgress(of: step.id)
        if last { state.recordFailure(failure(error)) }
        try await end(with: journal.record(
            direction == .forward ? .stepFailed : .revertFailed, step: step.id, attempt: attempt, durationMs: durationMs, error: error, stderr: stderrTail),
            unrecorded: last ? .failed : nil)
    }

    /// A signal stopped the run during the back-off before a retry: no further attempt starts, and as
    /// nothing runs the step is not in progress; it stays failed with the last attempt's `error`.
    func retriesStopped(error: String) async throws {
        state.recordFailure(failure(error))
        state.updatedAt = Timestamp.now()
        try await points.pass(.stepEnded, step: step.id) { try await store.commit(state, journal: []) }
    }

    private func mark(attempt: Int) -> InProgressStep {
        InProgressStep(
            id: step.id, run: journal.run, since: Timestamp.now(), attempt: attempt, host: ProcessIdentity.host,
            pid: ProcessIdentity.pid, cursor: cursor, direction: direction == .revert ? .revert : nil, phase: markedPhase)
    }

    /// The phase the step's marks record: nil for the pre-start phase, as in marks written before phases.
    private var markedPhase: StepPhase? { step.phase == .preStart ? nil : step.phase }

    private func failure(_ error: String) -> FailedStep {
        FailedStep(
            id: step.id, run: journal.run, at: Timestamp.now(), error: error, cursor: cursor, stderr: stderrTail,
            direction: direction == .revert ? .revert : nil, phase: markedPhase)
    }

    /// Commits the state with `record`, the checkpoint that ends an attempt. When the store fails
    /// to write it after an attempt that ended as `outcome`, the step's work is done (or its
    /// failure final) but the store still says in progress: the error says so. A step whose work
    /// shares the store's transaction has no such gap (the failed commit undid its work too), so
    /// its store error is thrown as it is.
    private func end(with record: JournalRecord, unrecorded outcome: UnrecordedStepOutcome.Outcome?) async throws {
        state.updatedAt = Timestamp.now()
        let records = pending + [record]
        pending = []
        do {
            try await points.pass(.stepEnded, step: step.id) { try await store.commit(state, journal: records) }
        } catch let error as StoreError {
            guard transaction == nil, let outcome else { throw error }
            throw UnrecordedStepOutcome(step: step.id, outcome: outcome, storeError: error)
        }
    }
}
