/// A locked store whose lock can be lost while it is held: a lease that must be renewed (the
/// PostgreSQL store's lease lock), offered as its `lease`. The runner races the run against `lockLost()`: when the lock is
/// lost, the running step is cancelled (as by a signal) and killed after the shorter of
/// `RunOptions.terminationGrace` and `LockLoss.stopWithin`, and the run ends with the loss's error
/// (exit 74) instead of its report.
public protocol ExpiringLockedStore: LockedStore {
    /// Returns when the lock is lost (it could not be renewed in time, or another runner took it
    /// over); returns nil when the calling task is cancelled while the lock is still held.
    func lockLost() async -> LockLoss?
}

extension ExpiringLockedStore {
    public var lease: (any ExpiringLockedStore)? { self }
}
