import Milepost
import MilepostSystem
import Synchronization

/// Keeps a lease alive while its run lasts: renews it every quarter of its duration on the lock
/// session (each renewal one short statement), reconnecting when that session breaks, and tells the
/// runner when the lease is lost (`lost()`): another runner took it over, or no renewal succeeded
/// for two thirds of the lease — early enough that the run can cancel its step and exit before the
/// lease can lapse and let another runner in.
final class LeaseHeartbeat: Sendable {
    private let lease: LeaseLock
    private let run: String
    private let settings: ConnectionSettings
    /// When the last successful renewal was sent, and whether the lease was found taken over.
    private let state: Mutex<(renewed: ContinuousClock.Instant, takenOver: Bool)>
    private let renewer = Mutex<Task<Void, Never>?>(nil)

    init(lease: LeaseLock, run: String, session: PostgresSession, taken: ContinuousClock.Instant) {
        self.lease = lease
        self.run = run
        self.settings = session.settings
        state = Mutex((taken, false))
        let task = Task { [weak self] in
            guard let self else { return }
            await self.renew(starting: session)
        }
        renewer.withLock { $0 = task }
    }

    /// Stops renewing (the lease is being released).
    func stop() {
        renewer.withLock { $0?.cancel() }
    }

    /// The time after which the holder gives up: two thirds of the lease after the last renewal.
    private var giveUp: Duration { lease.duration * 2 / 3 }

    /// Returns the reason once the lease is lost, with the time left to stop the running step:
    /// a third of the lease (what is left of it when the holder gives up renewing); nil when the
    /// calling task is cancelled first.
    func lost() async -> LockLoss? {
        while !Task.isCancelled {
            let (renewed, takenOver) = state.withLock { $0 }
            if takenOver {
                return lostError("another runner took it over after it lapsed (this process was paused or cut off)")
            }
            let remaining = renewed + giveUp - .now
            if remaining <= .zero {
                return lostError(
                    "it could not be renewed for \(DurationText.format(giveUp)) (two thirds of the lease of "
                        + "\(DurationText.format(lease.duration)))")
            }
            try? await Task.sleep(for: min(remaining, .milliseconds(100)))
        }
        return nil
    }

    private func lostError(_ why: String) -> LockLoss {
        LockLoss(
            error: .io(
                location: settings.location,
                reason: .other("lost the lock of run \(run): \(why); the running step was cancelled. "
                    + "See `milepost status` for what to do next")),
            stopWithin: lease.duration / 3)
    }

    private func renew(starting first: PostgresSession) async {
        var session: PostgresSession? = first
        var failed = false
        while !Task.isCancelled {
            try? await Task.sleep(for: failed ? lease.duration / 10 : lease.duration / 4)
            if Task.isCancelled { return }
            let sent = ContinuousClock.now
            do {
                let current: PostgresSession
                if let session {
                    current = session
                } else {
                    current = try await PostgresSession.open(settings)
                }
                session = current
                guard try await lease.renew(run: run, on: current) else {
                    state.withLock { $0.takenOver = true }
                    return
                }
                state.withLock { $0.renewed = sent }
                failed = false
            } catch {
                // A broken connection is opened again on the next try; the give-up deadline runs on.
                if case .unreachable = error as? StoreError { session = nil }
                failed = true
            }
        }
    }
}
