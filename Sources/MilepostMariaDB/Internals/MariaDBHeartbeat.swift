import Milepost
import MilepostSystem
import Synchronization

/// Keeps the lease alive while its run lasts: renews it every quarter of its duration on the lock
/// connection (one short statement), opening a new connection when that one breaks, and tells the
/// runner when the lease is lost (`lost()`): another runner took it over, or no renewal succeeded
/// for two thirds of the duration — early enough that the run can cancel its step and exit before
/// the lease can lapse and let another runner in.
final class MariaDBHeartbeat: Sendable {
    private let lease: MariaDBLease
    private let run: String
    private let settings: MariaDBSettings
    /// When the last successful renewal was sent, and whether the lease was found taken over.
    private let state: Mutex<(renewed: ContinuousClock.Instant, takenOver: Bool)>
    private let renewer = Mutex<Task<Void, Never>?>(nil)

    init(lease: MariaDBLease, run: String, connection: MariaDBConnection, taken: ContinuousClock.Instant) {
        self.lease = lease
        self.run = run
        settings = connection.settings
        state = Mutex((taken, false))
        let task = Task { [weak self] in
            guard let self else { return }
            await self.renew(starting: connection)
        }
        renewer.withLock { $0 = task }
    }

    /// Stops renewing (the lease is being released).
    func stop() {
        renewer.withLock { $0?.cancel() }
    }

    /// Two thirds of the lease after the last renewal: the holder gives up then.
    private var giveUp: Duration { lease.duration * 2 / 3 }

    /// Returns the loss once the lease is lost, with the time left to stop the running step (the
    /// third of the lease left when the holder gives up); nil when the calling task is cancelled first.
    func lost() async -> LockLoss? {
        while !Task.isCancelled {
            let (renewed, takenOver) = state.withLock { $0 }
            if takenOver { return loss("another runner took it over after it lapsed (this process was paused or cut off)") }
            let remaining = renewed + giveUp - .now
            if remaining <= .zero {
                return loss("it could not be renewed for \(DurationText.format(giveUp)) (two thirds of the lease's "
                    + "\(DurationText.format(lease.duration)))")
            }
            try? await Task.sleep(for: min(remaining, .milliseconds(100)))
        }
        return nil
    }

    private func loss(_ why: String) -> LockLoss {
        LockLoss(
            error: .io(
                location: settings.location,
                reason: .other("lost the lock of run \(run): \(why); the running step was cancelled. "
                    + "See `milepost status` for what to do next")),
            stopWithin: lease.duration / 3)
    }

    private func renew(starting first: MariaDBConnection) async {
        var connection: MariaDBConnection? = first
        var failed = false
        while !Task.isCancelled {
            try? await Task.sleep(for: failed ? lease.duration / 10 : lease.duration / 4)
            if Task.isCancelled { return }
            let sent = ContinuousClock.now
            do throws(StoreError) {
                let current: MariaDBConnection
                if let connection {
                    current = connection
                } else {
                    current = try await MariaDBConnection.open(settings)
                }
                connection = current
                guard try await lease.renew(run: run, on: current) else {
                    state.withLock { $0.takenOver = true }
                    return
                }
                state.withLock { $0.renewed = sent }
                failed = false
            } catch {
                // A broken connection is opened again on the next try; the give-up deadline runs on.
                if case .unreachable = error { connection = nil }
                failed = true
            }
        }
    }
}
