/// Decides which steps run: those with `from < threshold <= to` that have not completed.
/// Each step's status and reason is the answer of the first of its ordered rules that answers
/// (`PlannerRule`); then `after: background`, the approval gate and the required stop, over the plan.
public enum Planner {
    /// Plans a run of `manifest` from `from` to `target`.
    /// - parameters:
    ///   - manifest: the loaded manifest, whose steps are planned.
    ///   - state: the stored state, if any: its completed, failed and interrupted steps count.
    ///   - from: the starting version (`Runner` derives it from the state).
    ///   - origin: where `from` came from: the stored state or the manifest's baseline.
    ///   - target: the version to reach.
    ///   - lockHolder: who holds the store's lock now, if anyone: the step in progress is running, not
    ///     interrupted, when its run holds the lock.
    ///   - lateFloor: with a stored state, the version below which a step that never ran is not late
    ///     but assumed done (the baseline the store started from); nil: no step is late.
    ///   - scope: the `--labels` expression and the kind of run (`PlanScope`): steps out of it are
    ///     `.outOfScope`.
    ///   - host: the host store's records, for the `scope: host` steps (`StepScope`); nil: they are
    ///     planned as on a host that has run none (a new host), from the manifest's baseline.
    ///   - approvals: the approvals recorded for `requires: approval` steps: a step due without
    ///     one that applies is `.awaitingApproval` (`StepApprovals.gate(_:)`, the last rule).
    public static func plan(
        _ manifest: Manifest, state: StoredState?, from: Version, origin: Plan.Origin, to target: Version,
        lockHolder: LockHolder? = nil, lateFloor: Version? = nil, scope: PlanScope = PlanScope(), host: StoreRecords? = nil,
        approvals: StepApprovals = StepApprovals()
    ) -> Plan {
        let fleet = StoreRecords(state: state, from: from, lateFloor: lateFloor, lockHolder: lockHolder)
        let host = host ?? StoreRecords(state: nil, from: manifest.baseline)
        let (fleetCompleted, hostCompleted) = (fleet.completed, host.completed)
        let repeatable = RepeatableSteps(manifest, state: state)
        let onFleet = PlannerRule.Input(
            manifest, fleet, completed: fleetCompleted, elsewhere: hostCompleted, to: target, scope: scope, repeatable: repeatable)
        let onHost = PlannerRule.Input(
            manifest, host, completed: hostCompleted, elsewhere: fleetCompleted, to: target, scope: scope, repeatable: repeatable)
        let planned = repeatable.runOrder.map { step -> Plan.Entry in
            let (status, why) = step.scope == .host ? PlannerRule.decide(step, onHost) : PlannerRule.decide(step, onFleet)
            return Plan.Entry(step: step, status: status, why: why)
        }
        var entries = orderedAfterBackground(planned)
        if manifest.steps.contains(where: \.requiresApproval) { entries = entries.map(approvals.gate) }
        var plan = Plan(
            from: from, origin: origin, to: target, entries: entries,
            requiredStop: origin == .baseline ? nil : manifest.upgradePath.requiredStop(from: from, to: target)
                ?? unfinishedBackground(entries, path: manifest.upgradePath, from: from, to: target, scope: scope),
            scope: scope, hostFrom: manifest.steps.contains { $0.scope == .host } ? host.from : nil)
        plan.approvals = approvals
        return plan
    }

    /// What a store records, as the planner reads it: its state, the version a run on it starts
    /// from, its late floor and its lock's holder (`plan(_:state:from:origin:to:lockHolder:lateFloor:scope:host:)`).
    public struct StoreRecords: Sendable {
        public var state: StoredState?
        public var from: Version
        public var lateFloor: Version?
        public var lockHolder: LockHolder?

        public init(state: StoredState?, from: Version, lateFloor: Version? = nil, lockHolder: LockHolder? = nil) {
            self.state = state
            self.from = from
            self.lateFloor = lateFloor
            self.lockHolder = lockHolder
        }

        var completed: Set<String> { Set(state?.completed.map(\.id) ?? []) }
    }

    /// The background steps of `entries` that are not finished (waiting, or ahead: pending,
    /// interrupted, running or awaiting approval) at or below `version`: what a required stop's background kind and `after:
    /// background` wait for. A background step that never runs here (skipped, out of scope) is no
    /// reason to wait.
    private static func unfinishedBackground(_ entries: [Plan.Entry], atOrBelow version: Version) -> [Plan.Entry] {
        unfinishedBackground(entries).filter { $0.step.threshold <= version }
    }

    /// The background steps of `entries` not done yet, at any threshold.
    private static func unfinishedBackground(_ entries: [Plan.Entry]) -> [Plan.Entry] {
        entries.filter { $0.step.phase == .background && ($0.status == .waiting || $0.status.isAhead) }
    }

    /// `entries` with each due contract step ordered after the background steps (`after:
    /// background`) waiting while any of those at or below its threshold is unfinished.
    private static func orderedAfterBackground(_ entries: [Plan.Entry]) -> [Plan.Entry] {
        guard entries.contains(where: { $0.step.runsAfterBackground && $0.status == .pending }) else { return entries }
        // Collected once, not per contract step: the entries are read once whatever their number.
        let background = unfinishedBackground(entries)
        return entries.map { entry in
            guard entry.step.runsAfterBackground, entry.status == .pending else { return entry }
            let unfinished = background.filter { $0.step.threshold <= entry.step.threshold }
            return unfinished.isEmpty ? entry : Plan.Entry(step: entry.step, status: .waiting, why: .afterBackground(unfinished.map(\.step.id)))
        }
    }

    /// A run past the last stop the store reached waits for that stop's background steps: the
    /// `.background` required stop naming those not done; nil when they are, for a run that stays
    /// at `from`, and for a background run (which runs them first, in threshold order).
    private static func unfinishedBackground(
        _ entries: [Plan.Entry], path: UpgradePath, from: Version, to target: Version, scope: PlanScope
    ) -> RequiredStop? {
        guard target > from, scope.phase != .background, let stop = path.reachedStop(at: from) else { return nil }
        let unfinished = unfinishedBackground(entries, atOrBelow: stop)
        return unfinished.isEmpty ? nil : RequiredStop(version: stop, kind: .background, steps: unfinished.map(\.step.id))
    }

    /// The status of an in-progress step: running when its run holds the lock, else interrupted.
    static func inProgress(_ mark: InProgressStep, lockHolder: LockHolder?) -> (Plan.Status, Plan.Reason) {
        mark.isRunning(lockHolder: lockHolder) ? (.running, .running(mark)) : (.interrupted, .interrupted(mark))
    }
}
