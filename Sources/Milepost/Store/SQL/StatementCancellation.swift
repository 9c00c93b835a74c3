/// How a database statement meets its task's cancellation, for every database connection: a
/// cancellation stops the statement (`stop`: PostgreSQL's cancel request, MariaDB's `KILL QUERY`)
/// — a step's script, a lock wait, a lease's renewal — unless the statement is the locked store's
/// own bookkeeping (`shielding(_:)`: reading and committing the state, appending to the journal,
/// the step's transaction, releasing the lock). Those are short, fenced, and written on purpose
/// after a cancellation: the runner records a step's interruption and the run's end, and releases
/// the lock. Stopping them left a SIGTERM'd run on MariaDB throwing "Query execution was
/// interrupted" (error 1317) with its interruption unrecorded, one time in three.
package enum StatementCancellation {
    @TaskLocal private static var isShielded = false

    /// Runs `body` with its statements shielded from the task's cancellation.
    package static func shielding<Result: Sendable>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await $isShielded.withValue(true, operation: body, isolation: isolation)
    }

    /// Runs `statement`, with `stop` called when the task is cancelled, unless the statement is shielded.
    package static func run<Result: Sendable>(
        _ statement: () async -> Result, stop: @escaping @Sendable () -> Void
    ) async -> Result {
        if isShielded { return await statement() }
        return await withTaskCancellationHandler(operation: statement, onCancel: stop)
    }
}
