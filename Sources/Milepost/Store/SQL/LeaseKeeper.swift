import MilepostSystem
import Synchronization

/// A lock held by a row whose expiry its holder pushes forward (`LeaseKeeper`): the PostgreSQL
/// store's lease and session advisory lock, the MariaDB store's lease.
package protocol RenewableLease<Connection>: Sendable {
    /// The connection a renewal is sent on.
    associatedtype Connection: Sendable
    /// How long the row's expiry lasts after a renewal.
    var duration: Duration { get }
    /// True when the lock stays exclusive for as long as its session lives, however late the
    /// renewals (the advisory lock): the holder then gives up only when renewals fail, not when
    /// they merely come late (a process paused and continued still holds it).
    var heldWhileSessionLives: Bool { get }
    /// Why the lock is lost when a renewal finds it no longer this run's.
    var lossReason: String { get }
    /// Renews `run`'s hold on `connection`; `fresh` when the connection was opened after the
    /// previous one broke (a session lock must then be taken back on it).
    /// - returns: False when `run` no longer holds the lock.
    func renew(run: String, on connection: Connection, fresh: Bool) async throws -> Bool
}

/// Keeps a lease alive while its run lasts, the one lease timing of the database stores: renews it
/// every quarter of its duration on the lock connection (each renewal one short statement; a
/// tenth after a failed one), opening a new connection when that one breaks, and tells the runner
/// when the lock is lost (`lost()`): another runner has it, or no renewal succeeded for two thirds
/// of the duration — early enough that the run can cancel its step and exit within the third left
/// before the row can lapse and let another runner in.
package final class LeaseKeeper<Connection: Sendable>: Sendable {
    private let lease: any RenewableLease<Connection>
    private let run: String
    /// Where the store is, for the loss's error.
    private let location: String
    /// Said after a loss when a renewal was still waiting for its answer (a connection pooler
    /// queueing it for a server connection); nil on a direct connection.
    private let waitingAdvice: String?
    private let connect: @Sendable () async throws -> Connection
    /// When the last successful renewal was sent, whether the lock was found taken over, since
    /// when a renewal has been waiting for its answer (nil when none is under way), and whether
    /// the last renewal failed.
    private let state: Mutex<(renewed: ContinuousClock.Instant, takenOver: Bool, waiting: ContinuousClock.Instant?, failing: Bool)>
    private let renewer = Mutex<Task<Void, Never>?>(nil)

    /// Starts renewing `lease`, taken at `taken` on `connection`; `connect` opens a new connection
    /// when that one breaks (`StoreError.unreachable`).
    package init(
        lease: any RenewableLease<Connection>, run: String, location: String, starting connection: Connection,
        taken: ContinuousClock.Instant, waitingAdvice: String? = nil,
        connect: @escaping @Sendable () async throws -> Connection
    ) {
        self.lease = lease
        self.run = run
        self.location = location
        self.waitingAdvice = waitingAdvice
        self.connect = connect
        state = Mutex((taken, false, nil, false))
        let task = Task { [weak self] in
            guard let self else { return }
            await self.renew(starting: connection)
        }
        renewer.withLock { $0 = task }
    }

    /// Stops renewing (the lock is being released).
    package func stop() {
        renewer.withLock { $0?.cancel() }
    }

    /// The time after which the holder gives up: two thirds of the duration after the last renewal.
    private var giveUp: Duration { lease.duration * 2 / 3 }

    /// Returns the loss once the lock is lost, with the time left to stop the running step: a
    /// third of the lease (what is left of it when the holder gives up renewing); nil when the
    /// calling task is cancelled first.
    package func lost() async -> LockLoss? {
        while !Task.isCancelled {
            let (renewed, takenOver, waiting, failing) = state.withLock { $0 }
            if takenOver { return loss(lease.lossReason) }
            let remaining = renewed + giveUp - .now
            if remaining <= .zero, failing || !lease.heldWhileSessionLives {
                let why = "it could not be renewed for \(DurationText.format(giveUp)) (two thirds of the lock's "
                    + "\(DurationText.format(lease.duration)))"
                guard let waitingAdvice, let waiting else { return loss(why) }
                return loss(why + "; its renewal has been waiting for \(DurationText.format(.now - waiting)) " + waitingAdvice)
            }
            try? await Task.sleep(for: remaining > .zero ? min(remaining, .milliseconds(100)) : .milliseconds(100))
        }
        return nil
    }

    private func loss(_ why: String) -> LockLoss {
        LockLoss(
            error: .io(
                location: location,
                reason: .other("lost the lock of run \(run): \(why); the running step was cancelled. "
                    + "See `milepost status` for what to do next")),
            stopWithin: lease.duration / 3)
    }

    private func renew(starting first: Connection) async {
        var connection: Connection? = first
        /// True from opening a new connection until a renewal succeeds on it.
        var fresh = false
        var failed = false
        while !Task.isCancelled {
            try? await Task.sleep(for: failed ? lease.duration / 10 : lease.duration / 4)
            if Task.isCancelled { return }
            let sent = ContinuousClock.now
            do {
                let current: Connection
                if let connection {
                    current = connection
                } else {
                    current = try await connect()
                    fresh = true
                }
                connection = current
                state.withLock { $0.waiting = sent }
                defer { state.withLock { $0.waiting = nil } }
                guard try await lease.renew(run: run, on: current, fresh: fresh) else {
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
                if case .unreachable = error as? StoreError { connection = nil }
                state.withLock { $0.failing = true }
                failed = true
            }
        }
    }
}
