/// Waiting for a lock that can only be tried (`flock(LOCK_NB)`, `pg_try_advisory_lock`, a lease
/// row): try, and until the timeout passes, pause a short random while — so replicas that started
/// together do not retry in step — and try again. One loop for every store's lock.
package enum LockPolling {
    /// The pause between tries, in milliseconds.
    package static let pause = 20...100

    /// The first non-nil value of `attempt`, or nil when `timeout` passed without one (after one
    /// last try at the deadline).
    /// - throws: what `attempt` throws; `CancellationError` when the task is cancelled while waiting.
    package static func poll<Value>(timeout: Duration, _ attempt: () async throws -> Value?) async throws -> Value? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let value = try await attempt() { return value }
            let remaining = deadline - .now
            guard remaining > .zero else { return nil }
            try await Task.sleep(for: min(remaining, .milliseconds(Int.random(in: pause))))
        }
    }
}
