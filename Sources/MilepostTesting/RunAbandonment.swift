import Milepost
import Synchronization

/// Stops a run at one crash point as a crash would, in the process (`RunOptions.commitTrap`): the
/// run waits there for ever — its step's body too, awaiting the commit — and every write it tries
/// after that is refused, so the store holds exactly what was durable at the point. `outcome()`
/// tells the test whether the run got there; `release()` lets the abandoned run unwind once the
/// test is done with the trial (nothing it tries then is written).
final class RunAbandonment: Sendable {
    /// Thrown into the abandoned run at every write after its crash point.
    struct Abandoned: Error {}

    private struct State {
        /// The run reached the point (true), or ended without it (false); nil while neither.
        var outcome: Bool?
        var waiting: CheckedContinuation<Bool, Never>?
        /// The abandoned run, waiting at its point.
        var held: CheckedContinuation<Void, any Error>?
        var released = false
    }

    let crash: CrashPoint
    private let state = Mutex(State())

    init(at crash: CrashPoint) {
        self.crash = crash
    }

    /// The trap that stops the run at `crash`.
    var trap: CommitTrap {
        CommitTrap { [self] reached in try await reach(reached) }
    }

    private func reach(_ reached: CrashPoint) async throws {
        let first: Bool? = state.withLock { state in
            if state.outcome == true { return nil }
            guard reached == crash else { return false }
            state.outcome = true
            return true
        }
        switch first {
        case nil: throw Abandoned()
        case false?: return
        case true?:
            state.withLock { $0.waiting.take() }?.resume(returning: true)
            try await withCheckedThrowingContinuation { (held: CheckedContinuation<Void, any Error>) in
                let released = state.withLock { state in
                    state.held = held
                    return state.released
                }
                if released { state.withLock { $0.held.take() }?.resume(throwing: Abandoned()) }
            }
        }
    }

    /// Called when the run's task ends: it did not reach the point, unless it had.
    func runEnded() {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.outcome == nil else { return nil }
            state.outcome = false
            return state.waiting.take()
        }
        waiting?.resume(returning: false)
    }

    /// Whether the run reached the point (it waits there now) or ended without it.
    func outcome() async -> Bool {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { state in
                if state.outcome == nil { state.waiting = continuation }
                return state.outcome
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }

    /// Lets the abandoned run unwind: its wait throws `Abandoned`, as will every write it tries.
    func release() {
        let held = state.withLock { state in
            state.released = true
            return state.held.take()
        }
        held?.resume(throwing: Abandoned())
    }
}
