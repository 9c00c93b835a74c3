import MilepostSystem

/// One run of a manifest to a target over its store sides (`RunSides`), holding the locks of those
/// it writes: `prepare` reads each side under its lock and plans; `run` decides (`RunDecision`)
/// and ends the run before any step, records the stores up to date, or applies the steps segment
/// by segment, each against its side's store, and finishes every side it started.
struct RunSession {
    let runner: Runner
    let manifest: Manifest
    let target: Version
    let sides: RunSides
    let plan: Plan
    let journal: RunJournal
    /// Every write of the run goes through them (`CommitPoints.pass`).
    let points: CommitPoints
    let grace: StopGrace
    let deadline: RunDeadline?
    /// The stored version the run saw before it took the lock: another runner moved the store
    /// meanwhile when the locked state differs.
    let seenVersion: Version?
    /// The hooks run so far, for the report.
    private var hooks: [RunReport.StepResult] = []

    /// Reads the sides under their locks (`host` nil: the host store, if any, is only read) and plans.
    static func prepare(
        _ runner: Runner, manifest: Manifest, to target: Version, fleet: any LockedStore, host: (any LockedStore)?,
        journal: RunJournal, grace: StopGrace, seenVersion: Version?, deadline: RunDeadline?
    ) async throws -> RunSession {
        let logger = runner.logger
        let fleetSide = StoreSide.locked(
            fleet, of: runner.store, scope: .fleet, state: try await runner.stores.readStateWaitingForOrphanedStep(fleet), logger: logger)
        // Under its lock when the run records host steps; else only read, for what it says about the manifest.
        var hostSide: StoreSide?
        if let hostStore = runner.hostStore {
            hostSide = if let host {
                StoreSide.locked(
                    host, of: hostStore, scope: .host, state: try await runner.stores.readStateWaitingForOrphanedStep(host), logger: logger)
            } else {
                try await StoreSide.read(hostStore, scope: .host, holder: false, logger: logger)
            }
        }
        let sides = RunSides(fleet: fleetSide, host: hostSide)
        return RunSession(
            runner: runner, manifest: manifest, target: target, sides: sides,
            plan: try await runner.plan(manifest, sides: sides, to: target), journal: journal,
            points: CommitPoints(trap: runner.options.commitTrap), grace: grace, deadline: deadline, seenVersion: seenVersion)
    }

    /// Decides, then ends the run, records the stores up to date, or runs its steps.
    mutating func run() async throws -> RunReport {
        switch try runner.decide(plan, sides: sides, manifest: manifest) {
        case .ended(let ending): try await end(ending)
        case .upToDate: try await recordUpToDate()
        case .run(let steps): try await apply(steps)
        }
    }

    // MARK: - Ending before any step

    private var started: JournalRecord {
        journal.record(
            .runStarted, from: plan.from, to: target, phase: runner.options.phase, plan: runner.options.reviewedPlan?.digest)
    }

    /// Journals the run's start and its `ending` together: the run's `run-finished` commit point.
    private func end(_ ending: RunDecision.Ending) async throws -> RunReport {
        if case .blocked(let step) = ending {
            runner.logger.notice(
                "an interrupted step stops every run until it is resolved (or RunOptions.interruptedSteps is .retry)",
                metadata: ["step": "\(step.id)", "since": "\(step.since)", "host": "\(step.host)"])
        }
        try await appendRunFinished([started, ending.runFinished(journal, from: plan.from, to: target)])
        var ended = report(ending.outcome, interrupted: ending.interrupted)
        ending.describe(in: &ended)
        return ended
    }

    /// Planned against this very state and found up to date: records the manifest's digest where it
    /// is not yet, so the next run with this manifest need not plan.
    private func recordUpToDate() async throws -> RunReport {
        if let host = sides.host?.locked, let finished = finishedHostState(sides.host?.state), finished != sides.host?.state {
            try await points.pass(.runFinished) { try await host.commit(finished, journal: []) }
        }
        if var state = sides.fleet.state, runner.options.labels == nil, state.plannedWith != manifest.digest {
            state.plannedWith = manifest.digest
            let locked = fleet
            try await points.pass(.runFinished) { [state] in try await locked.commit(state, journal: []) }
        }
        return report(.upToDate)
    }

    // MARK: - Applying

    /// Runs `steps` in threshold order, each recorded in its side's store, between the run's hooks.
    private mutating func apply(_ steps: [ManifestStep]) async throws -> RunReport {
        try manifest.requireVariables(of: steps)  // before anything is written
        // Before anything is written or any hook runs: a first step that does not fit leaves the state as it was.
        if let first = steps.first, let refusal = deadline?.refusal(of: first) {
            try await appendRunFinished([started, journal.record(
                .runFinished, from: plan.from, to: target, step: first.id, error: refusal.message, outcome: .deadlineRefused)])
            return deadlineRefused(refusal, steps: [])
        }
        let fleetContext = context(of: sides.fleet)
        let hostContext = sides.host.flatMap { $0.locked == nil ? nil : context(of: $0) }
        var current = sides.fleet.state ?? StoredState(app: manifest.app, version: plan.from, updatedAt: Timestamp.now())
        current.app = manifest.app ?? current.app
        var hostCurrent = sides.host?.state
            ?? StoredState(app: manifest.app, version: plan.hostFrom ?? manifest.baseline, updatedAt: Timestamp.now())
        try await points.pass(.runStarted) { [started, fleet] in try await fleet.append([started]) }
        if let hostContext {
            try await points.pass(.runStarted) {
                try await hostContext.locked.append([journal.record(.runStarted, from: hostContext.from, to: target)])
            }
        }
        /// Appends each started side's `run-finished` record, the host store's first.
        func finish(_ outcome: JournalRecord.Outcome, step: String?, error: String?) async throws {
            try await hostContext?.finish(outcome, step: step, error: error)
            try await fleetContext.finish(outcome, step: step, error: error)
        }
        if !steps.isEmpty, let failed = try await runHooks(.beforeRun, in: fleetContext) {
            let failedHook = if case .failed = Runner.StepsEnd(stoppedAt: failed) { true } else { false }
            try await finish(
                failedHook ? .failed : .interrupted, step: failed.id, error: RunFailure.hookFailed(failed.id, error: failed.error))
            return report(failedHook ? .failed : .interrupted)
        }
        var (results, end): ([RunReport.StepResult], Runner.StepsEnd) = ([], .finished)
        // In threshold order, each step recorded in its own store: the host steps in the host store's.
        for segment in StepSegment.split(steps) {
            let numbering = (first: results.count + 1, total: steps.count)
            let applied = if segment.scope == .host, let hostContext {
                try await runner.applySteps(segment.steps, direction: .forward, state: &hostCurrent, in: hostContext, numbering: numbering)
            } else {
                try await runner.applySteps(segment.steps, direction: .forward, state: &current, in: fleetContext, numbering: numbering)
            }
            results += applied.results
            end = applied.end
            guard case .finished = end else { break }
        }
        switch end {
        case .finished:
            break
        case .failed(let step):
            _ = try await runHooks(.onFailure, in: fleetContext)
            try await finish(.failed, step: step.id, error: step.error)
            return report(.failed, steps: results)
        case .interrupted(let step):
            try await finish(.interrupted, step: step?.id, error: step?.error)
            return report(.interrupted, steps: results)
        case .deadlineRefused(let refusal):
            try await finish(.deadlineRefused, step: refusal.step, error: refusal.message)
            return deadlineRefused(refusal, steps: results)
        }
        if let gate = plan.approvalGate {
            try await finish(.awaitingApproval, step: gate.step.id, error: RunFailure.awaitingApproval(gate.step.id))
            return report(.awaitingApproval, steps: results)
        }
        if !steps.isEmpty { _ = try await runHooks(.afterRun, in: fleetContext) }
        try await commitTarget(fleet: current, host: hostCurrent, hostFrom: hostContext?.from)
        return report(.succeeded, steps: results)
    }

    /// Every step ran: each side's state at the target, with its `run-finished` record, the host store's first.
    private func commitTarget(fleet current: StoredState, host hostCurrent: StoredState, hostFrom: Version?) async throws {
        var current = current
        // A manifest with contract steps declares its other steps compatible with older
        // releases: the floor starts where it found the store (a fresh install, which ran the
        // contract steps too, at the target: no older release ran on it); one without keeps none.
        current.floor = manifest.steps.contains { $0.phase == .contract }
            ? current.floor ?? CompatibilityFloor(version: plan.scope.freshInstall ? target : plan.from) : nil
        current.version = target
        current.updatedAt = Timestamp.now()
        // Every pending step ran: planning this manifest against the new state finds it up to date.
        if runner.options.labels == nil { current.plannedWith = manifest.digest }
        // A fresh install that records its target says so as `milepost baseline` does: the
        // steps it left out are at or below the store's start, neither late nor pending later.
        let recorded = plan.scope.recordsFreshInstall ? [journal.record(.baseline, from: plan.from, to: target)] : []
        if let host = sides.host?.locked, let finished = finishedHostState(hostCurrent) {
            try await points.pass(.runFinished) { [journal, target] in
                try await host.commit(finished, journal: [journal.record(.runFinished, from: hostFrom, to: target, outcome: .succeeded)])
            }
        }
        try await points.pass(.runFinished) { [current, fleet, journal, plan, target] in
            try await fleet.commit(current, journal: recorded + [
                journal.record(.runFinished, from: plan.from, to: target, outcome: .succeeded)
            ])
        }
    }

    // MARK: - Parts

    /// The fleet side's lock: always held by a session.
    private var fleet: any LockedStore { sides.fleet.locked! }

    /// What the step and hook loops share on `side`, whose lock the session holds.
    private func context(of side: StoreSide) -> RunContext {
        RunContext(
            locked: side.locked!, journal: journal, points: points, grace: grace,
            from: side.scope == .host ? plan.hostFrom ?? manifest.baseline : plan.from, to: target,
            directory: manifest.directory, deadline: deadline, approvals: plan.approvals)
    }

    /// The host store's state once this run is done with it: at the target, planned with this
    /// manifest; nil when the run holds no host store.
    private func finishedHostState(_ state: StoredState?) -> StoredState? {
        guard sides.host?.locked != nil else { return nil }
        var finished = state ?? StoredState(app: manifest.app, version: target, updatedAt: Timestamp.now())
        finished.version = target
        finished.app = manifest.app ?? finished.app
        if runner.options.labels == nil { finished.plannedWith = manifest.digest }
        return finished
    }

    /// Appends `records`, ending with `run-finished`: the run's `run-finished` commit point (a run
    /// refused at its start appends its `run-started` with it).
    private func appendRunFinished(_ records: [JournalRecord]) async throws {
        try await points.pass(.runFinished) { [fleet] in try await fleet.append(records) }
    }

    /// Runs the hooks of `phase` (only around a run with steps to run); returns the first that failed.
    private mutating func runHooks(_ phase: ManifestHooks.Phase, in context: RunContext) async throws -> RunReport.StepResult? {
        let results = try await runner.runHooks(phase, of: manifest, in: context)
        hooks += results
        return results.first { $0.status != .succeeded }
    }

    private func report(_ outcome: RunReport.Outcome, steps: [RunReport.StepResult] = [], interrupted: InProgressStep? = nil) -> RunReport {
        var report = RunReport(
            outcome: outcome, run: outcome == .upToDate ? nil : journal.run, app: manifest.app, from: plan.from,
            to: target, steps: steps, plan: plan, interrupted: interrupted,
            doneByAnotherRunner: outcome == .upToDate && seenVersion != sides.fleet.state?.version)
        report.hooks = hooks
        return report
    }

    /// Ends the run before `refusal`'s step, which no longer fits the deadline.
    private func deadlineRefused(_ refusal: DeadlineRefusal, steps results: [RunReport.StepResult]) -> RunReport {
        var refused = report(.deadlineRefused, steps: results)
        refused.deadlineRefusal = refusal
        return refused
    }
}
