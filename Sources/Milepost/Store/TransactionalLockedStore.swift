/// A locked store whose checkpoints are database transactions (the SQL stores), offered as its
/// `stepTransactions`.
///
/// For a step whose parameters ask for it (`StoreBoundParameters.runsInCheckpointTransaction`),
/// the runner opens the transaction before the step runs and writes no in-progress mark: the
/// step's own writes and the checkpoint recording its success commit together, and a kill
/// mid-step rolls both back, so the step simply runs again.
public protocol TransactionalLockedStore: LockedStore {
    /// Opens a transaction; the next `commit(_:journal:)` writes inside it and commits it.
    func beginStepTransaction() async throws
    /// Rolls back the transaction `beginStepTransaction()` opened, undoing the step's writes.
    func rollbackStepTransaction() async
}

extension TransactionalLockedStore {
    public var stepTransactions: (any TransactionalLockedStore)? { self }
}
