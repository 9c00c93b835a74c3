/// What makes one step's (or revert's, or hook's) attempts durable, for the attempt loop
/// (`Runner.attempts`): its records before an attempt starts, while it runs and after it ends.
/// `StepCheckpoint` records a step or its revert in the state and the journal; `HookRecord` a hook
/// in the journal only.
protocol AttemptRecord: Actor {
    /// The cursor the next attempt resumes at; nil to start from the beginning.
    var cursor: String? { get }
    /// The tail of the stderr of the last attempt (`StepOutputTail`).
    var stderrTail: String? { get }
    /// Before attempt number `attempt`.
    func begin(attempt: Int) async throws
    /// The attempt's cursor, durable when this returns.
    func commitCursor(_ text: String) async throws
    /// The attempt's progress; returns what the terminal shows, nil when nothing is shown.
    func reportProgress(_ completed: Int, total: Int?, message: String?, interval: Duration) async throws -> StepProgress?
    /// The process group the attempt's work runs in, durable against the runner's death when this
    /// returns (a step's in-progress mark; nothing for what keeps none).
    func recordProcessGroup(_ group: Int32) async throws
    /// Keeps the tail of the attempt's stderr for the record that ends it.
    func recordStderrTail(_ tail: String)
    /// The attempt succeeded.
    func succeeded(attempt: Int, durationMs: Int) async throws
    /// A signal stopped the attempt.
    func interrupted(attempt: Int, durationMs: Int, error: String) async throws
    /// The attempt failed or timed out; `last` when no attempt follows.
    func failed(attempt: Int, durationMs: Int, error: String, last: Bool) async throws
    /// A signal came in the back-off before the next attempt: none starts; the last one's `error` stands.
    func retriesStopped(error: String) async throws
}
