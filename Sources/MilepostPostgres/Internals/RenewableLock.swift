/// A lock whose row in the `lease` table carries an expiry that its holder's heartbeat
/// (`LockHeartbeat`) pushes forward: the lease, and the session advisory lock.
protocol RenewableLock: Sendable {
    /// How long the row's expiry lasts after a renewal.
    var duration: Duration { get }
    /// True when the lock stays exclusive for as long as its session lives, however late the
    /// renewals (the advisory lock): the holder then gives up only when renewals fail, not when
    /// they merely come late (a process paused and continued still holds it).
    var heldWhileSessionLives: Bool { get }
    /// Why the lock is lost when a renewal finds it no longer this run's.
    var lossReason: String { get }
    /// Renews `run`'s hold on `session`; `fresh` when the session was opened after the previous
    /// one broke (the advisory lock must then be taken back on it).
    /// - returns: False when `run` no longer holds the lock.
    func renew(run: String, on session: PostgresSession, fresh: Bool) async throws -> Bool
}
