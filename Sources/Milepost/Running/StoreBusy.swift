import MilepostSystem

/// A run (or revert, resolve, baseline) that gave up waiting for another run: for the store's lock
/// (`StoreError.lockTimeout`), or, in a contract run, for the background steps its contract steps
/// are ordered after (`after: background`). Says what the other run was doing when the wait ended:
/// the lock's holder, and the step it was running with its phase, attempt and progress, read from
/// the state without the lock.
public struct StoreBusy: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the wait was for.
    public enum Wait: Sendable, Equatable {
        /// The store's lock, not acquired within the timeout (the store's own error, with the holder it named).
        case lock(StoreError)
        /// The background steps (`background`) that the contract steps (`contract`) are ordered
        /// after, still unfinished when `waited` ran out.
        case backgroundSteps(_ background: [String], contract: [String], waited: Duration)
    }

    public let wait: Wait
    /// Who held the lock when the wait ended; nil when nobody did.
    public let holder: LockHolder?
    /// The step the holder's run was running when the wait ended (`InProgressStep.phase`, `attempt`,
    /// `progress`); nil when it was between steps, or holds the lock for a revert, resolve or baseline.
    public let step: InProgressStep?

    public init(_ wait: Wait, holder: LockHolder?, step: InProgressStep?) {
        self.wait = wait
        self.holder = holder
        self.step = step
    }

    /// The holder's step as it is now: the state's step in progress when the holder's run runs it.
    static func holderStep(_ state: StoredState?, holder: LockHolder?) -> InProgressStep? {
        guard let holder, let step = state?.inProgress, step.run == holder.run else { return nil }
        return step
    }

    /// The phase of the holder's step: what kind of run holds the lock.
    public var holderPhase: StepPhase? { step.map { $0.phase ?? .preStart } }

    public var description: String {
        let what = switch wait {
        case .lock(let error): "\(error)"
        case .backgroundSteps(let background, let contract, let waited):
            "\(contract.joined(separator: ", ")) \(contract.count == 1 ? "is" : "are") ordered after the background "
                + "step\(background.count == 1 ? "" : "s") \(background.joined(separator: ", ")) (after: background), "
                + "still unfinished after \(DurationText.format(waited))"
        }
        guard let step else { return what }
        return what + "; it is running the \(holderPhase?.rawValue ?? "pre-start") step \(step.id) (attempt \(step.attempt), since \(step.since))"
    }
}
