/// How a database statement meets its task's cancellation, for every database connection: a
/// cancellation that arrives while the statement runs stops it (`stop`: PostgreSQL's cancel
/// request, MariaDB's `KILL QUERY`), but a statement started after its task was cancelled runs to
/// its end. Those are written on purpose — the runner recording a step's interruption and the
/// run's end, releasing the lock — and stopping them would leave the interruption unrecorded and
/// the lock held until its lease runs out.
package enum StatementCancellation {
    /// Runs `statement`, with `stop` called when the task is cancelled while it runs.
    package static func run<Result: Sendable>(
        _ statement: () async -> Result, stop: @escaping @Sendable () -> Void
    ) async -> Result {
        // `withTaskCancellationHandler` calls `onCancel` at once in a task already cancelled.
        if Task.isCancelled { return await statement() }
        return await withTaskCancellationHandler(operation: statement, onCancel: stop)
    }
}
