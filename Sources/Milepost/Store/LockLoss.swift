/// A lock lost while it was held (`ExpiringLockedStore.lockLost()`): why, and how long the running
/// step may still take to stop before another runner can take the lock.
public struct LockLoss: Sendable {
    /// The error the run ends with (exit 74).
    public let error: StoreError
    /// The time the step gets to stop once cancelled, at most (a third of a lease): the runner
    /// kills it after the shorter of this and `RunOptions.terminationGrace`.
    public let stopWithin: Duration

    public init(error: StoreError, stopWithin: Duration) {
        self.error = error
        self.stopWithin = stopWithin
    }
}
