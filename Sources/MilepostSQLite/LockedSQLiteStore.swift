import Milepost

/// A SQLite store whose lock this process holds (the `flock` on `PATH.milepost-lock`), with one
/// read-write connection to the database. Every checkpoint is one transaction (`BEGIN IMMEDIATE`
/// … `COMMIT`), durable when it returns (WAL, `synchronous=FULL`); a kill mid-transaction leaves
/// the database as it was before it.
///
/// Each checkpoint's transaction, and a step's transaction before the step runs in it, first
/// checks that the state row is the one this holder last read or wrote (`seen`): the fence of a
/// store whose lock is a file beside the database. A process that writes the database without
/// this lock (one that reached it by a hard link, or an older Milepost that locked another
/// spelling of its path) makes this holder's next checkpoint refuse, so the step it planned from
/// the older state does not run again.
actor LockedSQLiteStore: TransactionalLockedStore {
    /// nil once released.
    private var connection: SQLiteConnection?
    private let lock: SidecarLock.Held
    private let location: String
    /// True between `beginStepTransaction()` and the commit or rollback that ends it.
    private var inStepTransaction = false
    /// The state row's JSON as this holder last read or wrote it; nil when there was no row.
    private var seen: String?

    init(connection: sending SQLiteConnection, lock: SidecarLock.Held, location: String, seen: String?) {
        self.connection = connection
        self.lock = lock
        self.location = location
        self.seen = seen
    }

    /// `execute(stepSQL:)`, for the `sqlite` step.
    nonisolated var scripts: StoreScripts? {
        StoreScripts(dialect: .sqlite) { script in
            try await self.execute(stepSQL: script)
            return false
        }
    }

    func readState() async throws -> StoredState? {
        let connection = try connected()
        let text = try SQLiteSchema.stateText(on: connection)
        seen = text
        return try text.map { text throws(StoreError) in try SQLiteSchema.state(from: text, on: connection) }
    }

    /// One transaction: the one the step's transaction opened (its state checked when it began),
    /// else one of its own, which checks the state first.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        let connection = try connected()
        let stepTransaction = inStepTransaction
        inStepTransaction = false
        var written: String?
        try transaction(on: connection, open: !stepTransaction) { connection throws(StoreError) in
            if !stepTransaction { try checkSeen(on: connection) }
            written = try SQLiteSchema.write(state, on: connection)
            try SQLiteSchema.append(records, on: connection)
        }
        seen = written
    }

    /// In the step's transaction when one is open (records of the step's start then go with it),
    /// else in one of its own.
    func append(_ records: [JournalRecord]) async throws {
        guard !records.isEmpty else { return }
        let connection = try connected()
        if inStepTransaction {
            try SQLiteSchema.append(records, on: connection)
        } else {
            try transaction(on: connection, open: true) { connection throws(StoreError) in try SQLiteSchema.append(records, on: connection) }
        }
    }

    /// Rolls back a step's transaction still open, closes the connection, then drops the lock.
    func release() async {
        guard let connection else { return }
        connection.rollback()
        inStepTransaction = false
        self.connection = nil
        lock.release()
    }

    // MARK: - The step's transaction

    /// Opens the step's transaction and checks, inside it, that the state is the one this holder
    /// last read or wrote: the step runs only on the state it was planned from.
    func beginStepTransaction() async throws {
        let connection = try connected()
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            try checkSeen(on: connection)
        } catch {
            connection.rollback()
            throw error
        }
        inStepTransaction = true
    }

    func rollbackStepTransaction() async {
        guard inStepTransaction, let connection else { return }
        inStepTransaction = false
        connection.rollback()
    }

    /// Runs a step's SQL script on the store's connection, inside the step's transaction when one
    /// is open; then checks that the script left the transaction as it found it: a COMMIT or
    /// ROLLBACK in it would have ended the step's transaction before its checkpoint, a BEGIN
    /// without an end carried the next checkpoints into its transaction.
    /// - throws: SQLite's error as `StoreError.io`, so the step fails with it; `SQLiteStep.Failure`
    ///   when the script ended or opened a transaction.
    func execute(stepSQL sql: String) throws {
        let connection = try connected()
        try connection.execute(sql)
        guard let change = ScriptTransactionChange(inStepTransaction: inStepTransaction, openAfter: connection.inTransaction)
        else { return }
        switch change {
        case .endedStepTransaction: inStepTransaction = false
        case .leftOpen: connection.rollback()
        }
        throw SQLiteStep.Failure(message: change.failure(transactionOption: false))
    }

    // MARK: - Internals

    /// Runs `body` in a transaction and commits it; opens it first when `open` (else it is the
    /// step's, already open). Rolls back when anything fails.
    private func transaction(
        on connection: SQLiteConnection, open: Bool, _ body: (SQLiteConnection) throws(StoreError) -> Void
    ) throws(StoreError) {
        if open { try connection.execute("BEGIN IMMEDIATE") }
        do throws(StoreError) {
            try body(connection)
            try connection.execute("COMMIT")
        } catch {
            connection.rollback()
            throw error
        }
    }

    /// In an open transaction (which holds SQLite's write lock): the state row is still `seen`.
    /// - throws: `StoreError.io` saying another process wrote it; nothing was written.
    private func checkSeen(on connection: SQLiteConnection) throws(StoreError) {
        guard try SQLiteSchema.stateText(on: connection) != seen else { return }
        throw .io(location: location, reason: .other(
            "checkpoint refused: the state is not the one this run read under its lock, so another process wrote the "
                + "database without that lock (through a hard link to it, or a Milepost that locks another path to it); "
                + "this checkpoint was not written and the run stops: a step it was to start does not run"))
    }

    private func connected() throws(StoreError) -> SQLiteConnection {
        guard let connection else {
            usedAfterRelease(location)
        }
        return connection
    }
}
