/// A step ended but the store could not record how (a full disk, a lost connection): the store
/// still shows the step in progress, so the next run stops at it unless it is idempotent. Thrown
/// by `Runner.run` with the store's error, whose exit code the command line keeps; its advice says
/// which `resolve` records what really happened.
public struct UnrecordedStepOutcome: Error, Sendable, Equatable, CustomStringConvertible {
    /// How the step ended.
    public enum Outcome: String, Sendable {
        /// The step's work is complete.
        case succeeded
        /// The step failed on its last attempt.
        case failed
    }

    /// The step, as `THRESHOLD/ID`.
    public let step: String
    public let outcome: Outcome
    /// Why the store could not record it.
    public let storeError: StoreError

    public init(step: String, outcome: Outcome, storeError: StoreError) {
        self.step = step
        self.outcome = outcome
        self.storeError = storeError
    }

    public var description: String {
        "\(step) \(outcome.rawValue), but the store could not record it: \(storeError). "
            + "The store still shows \(step) in progress"
    }
}
