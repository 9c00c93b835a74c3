/// What a revert did (`Runner.revert`).
public struct RevertReport: Sendable {
    public enum Outcome: String, Sendable, Codable {
        /// Nothing to undo: the stored version already is the target.
        case upToDate = "up-to-date"
        /// Every revert succeeded and the stored version is now the target.
        case succeeded
        /// A revert failed; the revert stays unfinished and the stored version unchanged (exit 1).
        case failed
        /// An interrupted step or revert needs `resolve` first (exit 2).
        case blocked
        /// A signal stopped the revert during a step's revert; it is recorded as interrupted.
        case interrupted
        /// A dry run: nothing was written.
        case dryRun = "dry-run"
    }

    public let outcome: Outcome
    /// The run id the journal uses; nil when the revert wrote nothing.
    public let run: String?
    public let app: String?
    /// The stored version it started from, and the target.
    public let from: Version
    public let to: Version
    /// The reverts attempted, in order (`StepResult.id` names the step).
    public let steps: [RunReport.StepResult]
    /// What the revert undoes.
    public let plan: RevertPlan
    /// For `blocked`: the interrupted step (`direction` says whether its revert was running).
    public let interrupted: InProgressStep?
}
