/// Decides which steps run: those with `from < threshold <= to` that have not completed.
public enum Planner {
    /// Plans a run of `manifest` from `from` to `target`.
    /// - parameters:
    ///   - state: the stored state, if any: its completed, failed and interrupted steps count.
    ///   - from: the starting version, and where it came from (`Runner` derives it from the state).
    ///   - lockHolder: who holds the store's lock now, if anyone: the step in progress is running, not
    ///     interrupted, when its run holds the lock.
    ///   - lateFloor: with a stored state, the version below which a step that never ran is not late
    ///     but assumed done (the baseline the store started from); nil: no step is late.
    ///   - scope: the `--labels` expression and the kind of run (`PlanScope`): steps out of it are
    ///     `.outOfScope`.
    public static func plan(
        _ manifest: Manifest, state: StoredState?, from: Version, origin: Plan.Origin, to target: Version,
        lockHolder: LockHolder? = nil, lateFloor: Version? = nil, scope: PlanScope = PlanScope()
    ) -> Plan {
        let completed = Set(state?.completed.map(\.id) ?? [])
        let repeatable = RepeatableSteps(manifest, state: state)
        let entries = repeatable.runOrder.map { step -> Plan.Entry in
            if step.repeats != nil {
                let (status, why) = repeatable.status(of: step, to: target, state: state, lockHolder: lockHolder)
                if status == .pending, let exclusion = scope.exclusion(of: step) {
                    return Plan.Entry(step: step, status: .outOfScope, why: exclusion)
                }
                return Plan.Entry(step: step, status: status, why: why)
            }
            let late = lateFloor.flatMap { step.threshold > $0 ? manifest.latePolicy(for: step) : nil }
            let (status, why) = status(
                of: step, from: from, to: target, completed: completed, state: state, lockHolder: lockHolder, late: late,
                scope: scope)
            return Plan.Entry(step: step, status: status, why: why)
        }
        return Plan(
            from: from, origin: origin, to: target, entries: entries,
            requiredStop: origin == .baseline ? nil : manifest.upgradePath.requiredStop(from: from, to: target),
            scope: scope)
    }

    /// The status of an in-progress step: running when its run holds the lock, else interrupted.
    static func inProgress(_ mark: InProgressStep, lockHolder: LockHolder?) -> (Plan.Status, Plan.Reason) {
        mark.isRunning(lockHolder: lockHolder) ? (.running, .running(mark)) : (.interrupted, .interrupted(mark))
    }

    private static func status(
        of step: ManifestStep, from: Version, to target: Version, completed: Set<String>, state: StoredState?,
        lockHolder: LockHolder?, late: LatePolicy?, scope: PlanScope
    ) -> (Plan.Status, Plan.Reason) {
        if completed.contains(step.id) || step.replaces.map(completed.contains) == true { return (.completed, .completed) }
        // Below the stored version, yet not completed: the unfinished revert undid it (neither late nor skipped).
        if let reverting = state?.reverting, step.threshold > reverting.to, step.threshold <= from {
            return (.reverted, .reverted(to: reverting.to))
        }
        if step.threshold <= from {
            // A condition is decided by the run that passes the step: such a step is never late.
            if let when = step.when { return (.outOfScope, .conditionPassed(when, from: from)) }
            guard let late else { return (.skipped, .reached(from: from)) }
            if let exclusion = scope.exclusion(of: step) { return (.outOfScope, exclusion) }
            if late != .run { return (.skipped, .late(from: from, policy: late)) }
        } else if step.threshold > target {
            return (.aboveTarget, .aboveTarget(target))
        }
        if let inProgress = state?.interruptedMark(of: step.id) { return Self.inProgress(inProgress, lockHolder: lockHolder) }
        if let exclusion = scope.exclusion(of: step) { return (.outOfScope, exclusion) }
        if let failed = state?.failure(of: step.id) { return (.pending, .failed(error: failed.error)) }
        if step.threshold <= from, let late {
            // A labelled step that never ran was most likely left out by an earlier run's --labels.
            if !step.labels.isEmpty, step.late == nil { return (.pending, .leftOut(from: from)) }
            return (.pending, .late(from: from, policy: late))
        }
        return (.pending, .inRange(from: from, to: target))
    }
}
