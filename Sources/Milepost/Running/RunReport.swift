/// What a run did.
public struct RunReport: Sendable {
    public enum Outcome: String, Sendable, Codable {
        /// Nothing to do: the stored version is the target (includes the fast path).
        case upToDate = "up-to-date"
        /// Every pending step succeeded and the stored version is now the target.
        case succeeded
        /// A step failed; the stored version was not advanced (exit 1).
        case failed
        /// An interrupted step needs `resolve` first (exit 2).
        case blocked
        /// The target is below the stored version (exit 3).
        case downgradeRefused = "downgrade-refused"
        /// The target is below the stored version and that was allowed: nothing changed.
        case downgradeAllowed = "downgrade-allowed"
        /// The target is below the stored version and at or above the store's compatibility floor
        /// (`CompatibilityFloor`): an older release starts; nothing changed.
        case downgradeCompatible = "downgrade-compatible"
        /// The run was cancelled (SIGINT/SIGTERM) during a step; the step is recorded as interrupted.
        case interrupted
        /// A dry run: nothing was written.
        case dryRun = "dry-run"
        /// The store must reach a required stop first (`upgrade_from:`, `stops:`); nothing ran (exit 5).
        case stopRequired = "stop-required"
        /// The store has late steps under `late: fail`; nothing ran (exit 65).
        case lateRefused = "late-refused"
        /// A revert is unfinished (`StoredState.reverting`): finish it with `revert` first; nothing ran (exit 2).
        case revertUnfinished = "revert-unfinished"
        /// A step's budgeted duration no longer fit what was left of `RunOptions.deadline`: the run
        /// stopped before it, the state as the steps before it left it (`deadlineRefusal`; exit 6).
        case deadlineRefused = "deadline-refused"
        /// A `requires: approval` step has no approval (`Plan.approvalGate`): the run ran the steps
        /// before it and stopped (with a reviewed plan, before any step; exit 8).
        case awaitingApproval = "awaiting-approval"
        /// The reviewed plan (`RunOptions.reviewedPlan`) no longer holds: nothing ran (`planChanges`; exit 7).
        case planChanged = "plan-changed"

        /// Whether the run failed: it was asked to bring the store to its target and neither did
        /// nor found it there (a downgrade that was allowed, or a dry run, did what was asked). The
        /// one rule behind a non-zero exit status and the `milepost.run` span's error status.
        public var isFailure: Bool {
            switch self {
            case .upToDate, .succeeded, .downgradeAllowed, .downgradeCompatible, .dryRun: false
            case .failed, .blocked, .downgradeRefused, .interrupted, .stopRequired, .lateRefused, .revertUnfinished,
                .deadlineRefused, .awaitingApproval, .planChanged: true
            }
        }
    }

    /// One attempted step.
    public struct StepResult: Sendable {
        public enum Status: String, Sendable, Codable { case succeeded, failed, interrupted }
        public let id: String
        public let status: Status
        public let attempts: Int
        public let durationMs: Int
        /// The failure in words, as the journal and the command line show it (secrets redacted).
        public let error: String?
        /// The error the step's own closure threw in its last attempt, as it threw it, so that an
        /// application can match its own error type (`if let e = result.underlying as? MyError`);
        /// nil when the step succeeded, timed out or was interrupted. Not redacted: it is your value.
        public var underlying: (any Error)?
        /// For a failed or interrupted `exec` step: the last lines of its stderr, control characters
        /// other than newlines escaped.
        public var stderr: String?
    }

    public let outcome: Outcome
    /// The run id the journal uses; nil when the run wrote nothing.
    public let run: String?
    public let app: String?
    public let from: Version
    public let to: Version
    /// Steps attempted, in order.
    public let steps: [StepResult]
    /// The plan the run followed (for a dry run, what it would do).
    public let plan: Plan?
    /// For `blocked`: the interrupted step.
    public let interrupted: InProgressStep?
    /// True when another runner had already done the work while this one waited for the lock.
    public let doneByAnotherRunner: Bool
    /// For a downgrade (`downgradeCompatible`, `downgradeRefused`, `downgradeAllowed`): the store's
    /// compatibility floor, nil when it has none (compatible with its stored version only).
    public internal(set) var floor: CompatibilityFloor? = nil
    /// For `downgradeRefused`: why the store refuses the target (`CompatibilityFloor.refusal`).
    public internal(set) var refusal: DowngradeRefusal? = nil
    /// For `revertUnfinished`: the revert to finish first.
    public internal(set) var reverting: UnfinishedRevert? = nil
    /// For `deadlineRefused`: the step the run stopped before, and why.
    public internal(set) var deadlineRefusal: DeadlineRefusal? = nil
    /// For `planChanged`: what changed since the reviewed plan was made.
    public internal(set) var planChanges: [PlanChange] = []
    /// The hooks that ran (`hooks:`), in order; a failed `after_run` or `on_failure` hook does not
    /// change `outcome`.
    public var hooks: [StepResult] = []

    /// The approvals that let the attempted steps that require one start (`StepApprovals`), in order.
    public var approvals: [StepApprovals.Approval] {
        guard let plan else { return [] }
        let attempted = Set(steps.map(\.id))
        return plan.entries.filter { $0.step.requiresApproval && attempted.contains($0.step.id) }.compactMap { plan.approvals.approval(of: $0.step) }
    }
}
