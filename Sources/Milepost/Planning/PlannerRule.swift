/// The planner's rules for one step (`Planner.plan`), asked in their order (the cases' order): the
/// first rule that answers decides the step's status and reason, and a step no rule answers for is
/// due, in range (`from < threshold <= target`). Each rule's comment says what it decides and
/// why it sits where it does: several rely on the rules before them having passed the step.
///
/// Over the whole plan, after these: a contract step `after: background` waits for the unfinished
/// background steps at or below it; a due step that `requires: approval` without one awaits it
/// (`StepApprovals.gate(_:)`); and the plan's required stop (`upgrade_from:`, `stops:`, a stop's
/// unfinished background steps).
enum PlannerRule: CaseIterable {
    /// A repeatable step (`repeat: on-change`) is decided by its record's fingerprint
    /// (`RepeatableSteps`), and is out of scope when due but excluded. First: none of the one-time
    /// rules below applies to it, wherever its threshold is.
    case repeatable
    /// A step the other scope's store records as completed ran as a fleet step and is now `scope:
    /// host`, or the reverse: completed, `.scopeMoved`, which a run refuses. Before `completed`: a
    /// step both stores record is moved all the same.
    case scopeMoved
    /// A step its store records as completed, itself or the step it `replaces:`: completed. Before
    /// every rule of its position or marks: a completed step never runs again.
    case completed
    /// A step at or below `from` and above the target of the store's unfinished revert: the revert
    /// undid it (it is not completed). Before the rules of steps below `from`: it is neither
    /// late nor skipped, and runs again once the revert is finished.
    case reverted
    /// A `when:` step at or below `from`: the run that passed it decided its condition, so it is
    /// out of scope and never late. Before `reached`, which would call it skipped.
    case conditionPassed
    /// A step at or below `from` that is not late (no late floor, or at or below it): skipped, it
    /// will never run. Before `owed` and `late`: a contract or background step below the late
    /// floor is assumed done, not owed.
    case reached
    /// A late pre-start step that the scope leaves out: out of scope. Before `lateSkipped`: a step
    /// this run leaves out is not reported late (the rules above leave only late steps here).
    case lateExcluded
    /// A late pre-start step under `late: warn` or `late: fail`: skipped, with its policy (a
    /// warning, or a run's refusal). Before the marks: such a step never runs, even interrupted.
    case lateSkipped
    /// A step above `from` and above the target: above the target. After the rules of steps below
    /// `from`: in a downgrade, a step between the target and `from` is theirs.
    case aboveTarget
    /// A step with an in-progress mark: running when its run holds the lock (or its process group
    /// lives on), else interrupted. Before `excluded` and `waiting`: a step that started is
    /// finished or resolved whatever this run's scope and phase.
    case inProgress
    /// A step the scope leaves out (`--labels`, `when:`, a fresh install that records its target):
    /// out of scope. Before `waiting`: a step this run leaves out waits for no run.
    case excluded
    /// A due step of a phase this run does not run (`PlanScope.admits(_:from:to:)`): waiting.
    /// Before `failed`: a failed contract or background step waits for a run of its phase.
    case waiting
    /// A step whose last attempt failed: pending, with its error. Before `owed` and `late`: the
    /// failure is what a run retries.
    case failed
    /// A contract or background step at or below `from`, late (the rules above leave only late
    /// steps below `from`): owed, pending — the pre-start run to `from` passed it for its phase,
    /// it was not added late.
    case owed
    /// A late pre-start step (under `late: run`, the rules above took the others): pending; a
    /// labelled step without its own `late:` was most likely left out by an earlier run's
    /// `--labels` (`.leftOut`).
    case late

    /// What the rules read besides the step: the run's, and that of the store that records the
    /// step (the fleet's, or the host's for a `scope: host` step). Built once per store, not per
    /// step: a plan may have 100k steps.
    struct Input {
        let manifest: Manifest
        /// The version the run starts from in this store.
        let from: Version
        let target: Version
        /// The version above which a step that never ran here is late; nil: none is.
        let lateFloor: Version?
        /// The ids this store records as completed.
        let completed: Set<String>
        /// The ids the other scope's store records as completed.
        let elsewhere: Set<String>
        let state: StoredState?
        let lockHolder: LockHolder?
        let scope: PlanScope
        let repeatable: RepeatableSteps

        init(
            _ manifest: Manifest, _ records: Planner.StoreRecords, completed: Set<String>, elsewhere: Set<String>,
            to target: Version, scope: PlanScope, repeatable: RepeatableSteps
        ) {
            self.manifest = manifest
            from = records.from
            self.target = target
            lateFloor = records.lateFloor
            self.completed = completed
            self.elsewhere = elsewhere
            state = records.state
            lockHolder = records.lockHolder
            self.scope = scope
            self.repeatable = repeatable
        }

        /// `step`'s late policy when it is late (above the late floor); nil when it is not.
        func late(_ step: ManifestStep) -> LatePolicy? {
            lateFloor.flatMap { step.threshold > $0 ? manifest.latePolicy(for: step) : nil }
        }
    }

    /// The rules in their order, made once: `allCases` builds a new array at each call, once per
    /// step of a plan (it doubled the time of planning 100k steps).
    private static let ordered = allCases

    /// The status and reason of `step`: the answer of the first rule that answers; due, in range, when none does.
    static func decide(_ step: ManifestStep, _ input: Input) -> (Plan.Status, Plan.Reason) {
        let late = input.late(step)
        for rule in ordered {
            if let answer = rule.answer(step, late: late, input) { return answer }
        }
        return (.pending, .inRange(from: input.from, to: input.target))
    }

    /// This rule's answer for `step`, whose late policy is `late`; nil when it does not decide it.
    func answer(_ step: ManifestStep, late: LatePolicy?, _ input: Input) -> (Plan.Status, Plan.Reason)? {
        let from = input.from
        switch self {
        case .repeatable:
            guard step.repeats != nil else { return nil }
            let (status, why) = input.repeatable.status(of: step, to: input.target, state: input.state, lockHolder: input.lockHolder)
            if status == .pending, let exclusion = input.scope.exclusion(of: step) { return (.outOfScope, exclusion) }
            return (status, why)
        case .scopeMoved:
            return Self.records(step, in: input.elsewhere) ? (.completed, .scopeMoved(ranAs: step.scope == .host ? .fleet : .host)) : nil
        case .completed:
            return Self.records(step, in: input.completed) ? (.completed, .completed) : nil
        case .reverted:
            guard let reverting = input.state?.reverting, step.threshold > reverting.to, step.threshold <= from else { return nil }
            return (.reverted, .reverted(to: reverting.to))
        case .conditionPassed:
            guard step.threshold <= from, let when = step.when else { return nil }
            return (.outOfScope, .conditionPassed(when, from: from))
        case .reached:
            return step.threshold <= from && late == nil ? (.skipped, .reached(from: from)) : nil
        case .lateExcluded:
            guard step.threshold <= from, step.phase == .preStart, let exclusion = input.scope.exclusion(of: step) else { return nil }
            return (.outOfScope, exclusion)
        case .lateSkipped:
            guard step.threshold <= from, step.phase == .preStart, let late, late != .run else { return nil }
            return (.skipped, .late(from: from, policy: late))
        case .aboveTarget:
            return step.threshold > from && step.threshold > input.target ? (.aboveTarget, .aboveTarget(input.target)) : nil
        case .inProgress:
            return input.state?.interruptedMark(of: step.id).map { Planner.inProgress($0, lockHolder: input.lockHolder) }
        case .excluded:
            return input.scope.exclusion(of: step).map { (.outOfScope, $0) }
        case .waiting:
            return input.scope.admits(step, from: from, to: input.target) ? nil : (.waiting, .waiting(step.phase))
        case .failed:
            return input.state?.failure(of: step.id).map { (.pending, .failed(error: $0.error)) }
        case .owed:
            return step.threshold <= from && step.phase != .preStart ? (.pending, .owed(step.phase, from: from)) : nil
        case .late:
            guard step.threshold <= from, let late else { return nil }
            return (.pending, !step.labels.isEmpty && step.late == nil ? .leftOut(from: from) : .late(from: from, policy: late))
        }
    }

    /// Whether `completed` records `step`: its id, or that of the step it replaces.
    private static func records(_ step: ManifestStep, in completed: Set<String>) -> Bool {
        completed.contains(step.id) || step.replaces.map(completed.contains) == true
    }
}
