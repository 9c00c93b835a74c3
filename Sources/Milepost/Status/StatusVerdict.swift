/// What `status` concludes about a store, most urgent first: the one word readiness probes, people
/// and `milepost status` act on.
public enum StatusVerdict: String, Sendable {
    /// A run holds the lock right now.
    case running
    /// A step's process died mid-step; a run needs `resolve` first unless the step is idempotent.
    case interrupted
    /// The last step failed; the next run resumes at it.
    case failed
    /// Steps would run for the target.
    case pending
    /// Nothing is stored, and no target was given to plan to.
    case empty
    /// Nothing pending for the target (or, without one, nothing unfinished).
    case ok
}

extension StatusReport {
    /// The verdict on this report; `hasTarget` says whether a target version was given.
    public func verdict(hasTarget: Bool) -> StatusVerdict {
        if running != nil || lockHolder != nil { return .running }
        if interrupted != nil { return .interrupted }
        if state?.failed != nil { return .failed }
        if !pending.isEmpty, plan != nil { return .pending }
        if state == nil, !hasTarget { return .empty }
        return .ok
    }

    /// The readiness rule of `status --check`: nothing is pending for the target (no step to run,
    /// no failed or interrupted step), and a run would not refuse (a late step under `late: fail`,
    /// a required stop), and no revert is unfinished. Meaningful with a manifest and a target.
    public var isReady: Bool {
        guard pending.isEmpty, state?.reverting == nil else { return false }
        guard let plan else { return true }
        return plan.lateRefused.isEmpty && plan.requiredStop == nil
    }
}
