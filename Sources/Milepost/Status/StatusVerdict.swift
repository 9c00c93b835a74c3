/// What `status` concludes about a store, most urgent first: the one word readiness probes, people
/// and `milepost status` act on.
public enum StatusVerdict: String, Sendable {
    /// The target is below the store's compatibility floor (`Readiness.belowFloor`): `run`, `wait`
    /// and `status --check` refuse it (exit 3); the way out is a release at or above the floor.
    case downgradeRefused = "downgrade-refused"
    /// A run holds the lock right now.
    case running
    /// A step's process died mid-step; a run needs `resolve` first unless the step is idempotent.
    case interrupted
    /// The last step failed; the next run resumes at it.
    case failed
    /// A revert is unfinished (`StoredState.reverting`): runs refuse, and no version is ready,
    /// until `revert` finishes it.
    case revertUnfinished = "revert-unfinished"
    /// Steps would run for the target.
    case pending
    /// Nothing is stored: a new store (or a store named wrongly), which a run would start from the
    /// manifest's baseline, running every step above it.
    case new
    /// Nothing pending for the target (or, without one, nothing unfinished).
    case ok
}

extension StatusReport {
    /// The verdict on this report.
    public var verdict: StatusVerdict {
        if case .belowFloor = readiness { return .downgradeRefused }
        if running != nil || sides.contains(where: { $0.lockHolder != nil }) { return .running }
        if interrupted != nil { return .interrupted }
        if failed != nil { return .failed }
        if state?.reverting != nil { return .revertUnfinished }
        if !pending.isEmpty, plan != nil { return .pending }
        if state == nil { return .new }
        return .ok
    }

    /// The readiness rule of `status --check`: the state is ready for the plan's target
    /// (`Readiness`, the rule `wait` settles on), nothing is pending for it (a late or repeatable
    /// step, one left out by `--labels`), and a run would not refuse (a late step under
    /// `late: fail`, a required stop, a completed step whose scope moved). Needs a manifest: false without one. Steps of another phase
    /// than the plan's (`RunOptions.phase`, `status --require`) do not count.
    public var isReady: Bool {
        guard let plan, Readiness(state, for: plan.to, phase: plan.scope.phase) == .ready else { return false }
        return pending.isEmpty && plan.lateRefused.isEmpty && plan.requiredStop == nil && plan.scopeMoved.isEmpty
    }
}
