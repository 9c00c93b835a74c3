import Milepost
import MilepostSystem
import Synchronization

/// Keeps a lock's row alive while its run lasts (`RenewableLock`: the lease, or the session
/// advisory lock): renews it every quarter of its duration on the lock session (each renewal one
/// short statement), reconnecting when that session breaks (the advisory lock is then taken back
/// on the new session when no other runner took it), and tells the runner when the lock is lost
/// (`lost()`): another runner has it, or no renewal succeeded for two thirds of the duration —
/// early enough that the run can cancel its step and exit before the row can lapse and let
/// another runner in. For the advisory lock, late renewals alone (a paused process) lose nothing:
/// the lock is exclusive while its session lives, and only failing renewals count.
final class LockHeartbeat: Sendable {
    private let lock: any RenewableLock
    private let run: String
    private let settings: ConnectionSettings
    /// True when a connection pooler is in between: a renewal that does not come back is then
    /// most likely queued for a server connection, and the loss says so.
    private let pooled: Bool
    /// When the last successful renewal was sent, whether the lock was found taken over, since
    /// when a renewal has been waiting for its answer (nil when none is under way), and whether
    /// the last renewal failed.
    private let state: Mutex<(renewed: ContinuousClock.Instant, takenOver: Bool, waiting: ContinuousClock.Instant?, failing: Bool)>
    private let renewer = Mutex<Task<Void, Never>?>(nil)

    init(lock: any RenewableLock, run: String, session: PostgresSession, taken: ContinuousClock.Instant, pooled: Bool) {
        self.lock = lock
        self.run = run
        self.settings = session.settings
        self.pooled = pooled
        state = Mutex((taken, false, nil, false))
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

    /// The time after which the holder gives up: two thirds of the duration after the last renewal.
    private var giveUp: Duration { lock.duration * 2 / 3 }

    /// Returns the reason once the lease is lost, with the time left to stop the running step:
    /// a third of the lease (what is left of it when the holder gives up renewing); nil when the
    /// calling task is cancelled first.
    func lost() async -> LockLoss? {
        while !Task.isCancelled {
            let (renewed, takenOver, waiting, failing) = state.withLock { $0 }
            if takenOver { return lostError(lock.lossReason) }
            let remaining = renewed + giveUp - .now
            if remaining <= .zero, failing || !lock.heldWhileSessionLives {
                let why = "it could not be renewed for \(DurationText.format(giveUp)) (two thirds of the lock's "
                    + "\(DurationText.format(lock.duration)))"
                guard pooled, let waiting else { return lostError(why) }
                return lostError(
                    why + "; its renewal has been waiting for \(DurationText.format(.now - waiting)) on the connection "
                        + "pooler, most likely for a server connection: while an sql step runs in its transaction a "
                        + "runner needs two server connections at once (one for the step, one for the renewal), so the "
                        + "pool (PgBouncer default_pool_size or the database's pool_size) needs at least 2; see "
                        + "docs/postgres.md, What to do when")
            }
            try? await Task.sleep(for: remaining > .zero ? min(remaining, .milliseconds(100)) : .milliseconds(100))
        }
        return nil
    }

    private func lostError(_ why: String) -> LockLoss {
        LockLoss(
            error: .io(
                location: settings.location,
                reason: .other("lost the lock of run \(run): \(why); the running step was cancelled. "
                    + "See `milepost status` for what to do next")),
            stopWithin: lock.duration / 3)
    }

    private func renew(starting first: PostgresSession) async {
        var session: PostgresSession? = first
        /// True from opening a new session until a renewal succeeds on it.
        var fresh = false
        var failed = false
        while !Task.isCancelled {
            try? await Task.sleep(for: failed ? lock.duration / 10 : lock.duration / 4)
            if Task.isCancelled { return }
            let sent = ContinuousClock.now
            do {
                let current: PostgresSession
                if let session {
                    current = session
                } else {
                    current = try await PostgresSession.open(settings)
                    fresh = true
                }
                session = current
                state.withLock { $0.waiting = sent }
                defer { state.withLock { $0.waiting = nil } }
                guard try await lock.renew(run: run, on: current, fresh: fresh) else {
                    state.withLock { $0.takenOver = true }
                    return
                }
                state.withLock {
                    $0.renewed = sent
                    $0.failing = false
                }
                fresh = false
                failed = false
            } catch {
                // A broken connection is opened again on the next try; the give-up deadline runs on.
                if case .unreachable = error as? StoreError { session = nil }
                state.withLock { $0.failing = true }
                failed = true
            }
        }
    }
}
