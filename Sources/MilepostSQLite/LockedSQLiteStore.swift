import Milepost

/// A SQLite store whose lock this process holds (the `flock` on `PATH.milepost-lock`), with one
/// read-write connection to the database. Every checkpoint is one transaction (`BEGIN IMMEDIATE`
/// … `COMMIT`), durable when it returns (WAL, `synchronous=FULL`); a kill mid-transaction leaves
/// the database as it was before it.
actor LockedSQLiteStore: TransactionalLockedStore {
    /// nil once released.
    private var connection: SQLiteConnection?
    private let lock: SidecarLock.Held
    private let location: String
    /// True between `beginStepTransaction()` and the commit or rollback that ends it.
    private var inStepTransaction = false

    init(connection: sending SQLiteConnection, lock: SidecarLock.Held, location: String) {
        self.connection = connection
        self.lock = lock
        self.location = location
    }

    func readState() async throws -> StoredState? {
        try SQLiteSchema.readState(on: try connected())
    }

    /// One transaction: the one the step's transaction opened, else one of its own.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        let connection = try connected()
        let stepTransaction = inStepTransaction
        inStepTransaction = false
        try transaction(on: connection, open: !stepTransaction) { connection throws(StoreError) in
            try SQLiteSchema.write(state, on: connection)
            try SQLiteSchema.append(records, on: connection)
        }
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

    func beginStepTransaction() async throws {
        try connected().execute("BEGIN IMMEDIATE")
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
        let open = connection.inTransaction
        if inStepTransaction, !open {
            inStepTransaction = false
            throw SQLiteStep.Failure(
                message: "the script ended the step's transaction (a COMMIT, ROLLBACK or END in it): what it ran before "
                    + "that is committed or undone on its own, not with the step's checkpoint. Remove transaction "
                    + "control from the script, check what it did, then resolve the step")
        }
        if !inStepTransaction, open {
            connection.rollback()
            throw SQLiteStep.Failure(
                message: "the script left a transaction open (a BEGIN without its COMMIT), which was rolled back; "
                    + "remove BEGIN from the script")
        }
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

    private func connected() throws(StoreError) -> SQLiteConnection {
        guard let connection else {
            preconditionFailure("a LockedStore of \(location) was used after release()")
        }
        return connection
    }
}
