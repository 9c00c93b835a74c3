import MilepostSystem

/// How a wait for a version ended (`MilepostStore.wait(for:timeout:interval:)`, `milepost wait`).
public enum WaitOutcome: String, Sendable {
    /// The store is ready for the target (`Readiness.ready`): the stored version is at or above
    /// it, no revert is unfinished and no step at or below it is interrupted or failed (exit 0).
    case reached
    /// A step failed and no run holds the lock to retry it (exit 1).
    case failed
    /// A step was interrupted and no run holds the lock (exit 2): it needs `resolve` (or a run,
    /// if it is idempotent).
    case blocked
    /// A revert is unfinished and no revert holds the lock (exit 2): it needs `revert` to finish.
    case revertUnfinished = "revert-unfinished"
    /// The target is below the store's compatibility floor (`Readiness.belowFloor`): `run`
    /// refuses it too (exit 3), and no run makes it ready. Settled at once, lock or not.
    case downgradeRefused = "downgrade-refused"
    /// The timeout passed first (exit 75).
    case timedOut = "timed-out"
}

/// What `MilepostStore.wait(for:timeout:interval:)` saw last.
public struct WaitReport: Sendable {
    public let outcome: WaitOutcome
    public let target: Version
    /// The state as last read; nil when nothing was stored.
    public let state: StoredState?
    /// How long the wait took.
    public let waited: Duration

    /// The interrupted step the wait stopped at (`Readiness` of `state` for `target`): the one
    /// at or below the target, not another step's set-aside mark.
    public var interrupted: InProgressStep? {
        if case .inProgress(let mark) = Readiness(state, for: target) { mark } else { nil }
    }

    /// The failed step the wait stopped at, by the same rule.
    public var failed: FailedStep? {
        if case .failed(let failure) = Readiness(state, for: target) { failure } else { nil }
    }

    /// Why the store refuses the target, by the same rule (`run`'s exit 3).
    public var refusal: DowngradeRefusal? {
        if case .belowFloor(let refusal) = Readiness(state, for: target) { refusal } else { nil }
    }
}

/// `milepost wait`: for replicas that must not run steps themselves, only wait until another
/// runner has brought the store to a version. Beside `versionHistory()`: a reader of the store
/// that runs nothing.
extension MilepostStore {
    /// Polls the stored state every `interval` — a read that takes no lock and holds no
    /// transaction, like `status` — until the store is ready for `target` (`Readiness`, the rule
    /// `status --check` shares), or a step at or below `target` is interrupted or failed, or a
    /// revert is unfinished, while no run holds the lock (a run holding it may still finish or
    /// retry it), or `target` is below the store's compatibility floor (at once: `run` refuses it
    /// too), or `timeout` passes. A store that cannot be
    /// reached is tried again until the timeout (the database may start after the waiting replica).
    /// - throws: `StoreError` (the last `.unreachable` one when the store was never reached before
    ///   the timeout, any other at once; a bad stored version is `.unreadableState`).
    public func wait(for target: Version, timeout: Duration, interval: Duration = .milliseconds(500)) async throws -> WaitReport {
        let clock = ContinuousClock()
        let started = clock.now
        var unreachable: StoreError?
        while true {
            var state: StoredState?
            do {
                state = try await readState()
                unreachable = nil
                if let outcome = try await settled(state, at: target) {
                    return WaitReport(outcome: outcome, target: target, state: state, waited: clock.now - started)
                }
            } catch let error as StoreError {
                guard case .unreachable = error else { throw error }
                unreachable = error
            }
            let remaining = started + timeout - clock.now
            guard remaining > .zero else {
                if let unreachable { throw unreachable }
                return WaitReport(outcome: .timedOut, target: target, state: state, waited: clock.now - started)
            }
            try await Task.sleep(for: min(interval, remaining))
        }
    }

    /// The outcome `state` settles (`Readiness`), or nil to keep waiting.
    private func settled(_ state: StoredState?, at target: Version) async throws -> WaitOutcome? {
        let outcome: WaitOutcome
        switch Readiness(state, for: target) {
        case .ready: return .reached
        case .behind: return nil
        case .inProgress: outcome = .blocked
        case .failed: outcome = .failed
        case .revertUnfinished: outcome = .revertUnfinished
        // No run lowers the floor: nothing to wait for.
        case .belowFloor: return .downgradeRefused
        }
        // Reading the lock costs another query: only when something is unfinished. A run (or revert)
        // holding it may still finish or retry it; one that ended between the two reads released
        // the lock: the state must be read again unchanged.
        if try await lockHolder() != nil { return nil }
        guard try await readState() == state else { return nil }
        return outcome
    }
}
