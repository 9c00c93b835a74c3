import Synchronization

/// How long a cancelled step may take to stop before it is given up on (its `exec` child's process
/// group killed): `--termination-grace`, which the runner shortens when the run must end sooner —
/// its lease lost, so that the step is stopped before another runner can take the lock. Read when
/// the cancellation happens, so a shortening made before cancelling applies to it.
package final class StopGrace: Sendable {
    private let value: Mutex<Duration>

    package init(_ grace: Duration) { value = Mutex(grace) }

    /// The grace now.
    package var duration: Duration { value.withLock { $0 } }

    /// Lowers the grace to `limit` (never raises it).
    package func shorten(to limit: Duration) {
        value.withLock { $0 = min($0, limit) }
    }
}
