import Synchronization

/// How a SQL store's locked writes (checkpoints, journal appends, the lock's release) survive a
/// broken data connection — a server restart, a fail-over, a pooler restart, an idle-session killer
/// (`wait_timeout`, a `KILL`): the write is sent again on a new connection after a pause, up to
/// `pauses.count` more times. Safe for checkpoints: each is a compare-and-set on the fencing
/// generation, so the write of a holder that lost its lock meanwhile is refused. One policy for the
/// PostgreSQL and MariaDB stores; each gives its own way to open a new data connection.
package final class CheckpointReconnection: Sendable {
    /// The pauses between tries: 0.25 + 0.5 + 1 + 2 + 4 s, enough for a restart (`pg_ctl restart
    /// -m fast` takes about a second) or a pooler's, not enough to hold a run for long when the
    /// server is gone.
    package static let pauses: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4)]

    /// True once a write that could retry gave up: the later ones (journaling the failure) try
    /// once. A write that could not retry (the end of a step's transaction) leaves them all their tries.
    private let gaveUp = Mutex(false)

    package init() {}

    /// Runs `body`; when it fails because the connection broke (`StoreError.unreachable`) and
    /// `retry` allows, pauses, calls `reconnect` and runs it again (`retried` is then true). A run
    /// cancelled meanwhile (its lock lost) stops trying.
    /// - throws: The first loss of the connection (later tries only fail to reach the server
    ///   again), or whatever else `body` throws.
    package func run<Result: Sendable>(
        retry: Bool, isolation: isolated (any Actor)? = #isolation, reconnect: () async throws -> Void,
        _ body: (_ retried: Bool) async throws -> Result
    ) async throws -> Result {
        var pauses = retry && !gaveUp.withLock({ $0 }) ? Self.pauses[...] : []
        var retried = false
        var lost: StoreError?
        while true {
            do {
                return try await body(retried)
            } catch let error as StoreError {
                guard case .unreachable = error else { throw error }
                lost = lost ?? error
                guard let pause = pauses.popFirst() else {
                    if retry { gaveUp.withLock { $0 = true } }
                    throw lost ?? error
                }
                try? await Task.sleep(for: pause)
                if Task.isCancelled { throw lost ?? error }
                retried = true
                try? await reconnect()
            }
        }
    }
}
