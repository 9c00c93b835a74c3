/// Parameters of a step that works on the store itself, such as the built-in `sql` step, which
/// needs a PostgreSQL store and runs in the transaction of its checkpoint.
public protocol StoreBoundParameters: Sendable {
    /// Why the step cannot run against `store`, or nil when it can. The runner asks for every step
    /// of the manifest before any step runs; a refusal is a manifest error (exit 65).
    func refusal(for store: any MilepostStore) -> String?
    /// True to run the step inside the transaction of its checkpoint when the store has one
    /// (see `TransactionalLockedStore`).
    var runsInCheckpointTransaction: Bool { get }
}
