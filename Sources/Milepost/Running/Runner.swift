public import Logging
import MilepostSystem

/// Runs a manifest's pending steps against a store: the library call behind `milepost run`.
///
/// ```swift
/// let runner = Runner(store: FileStore(path: ".milepost"), logger: logger)
/// let report = try await runner.run(to: Version("2.7")) {
///     try Manifest.load(path: "milepost.yaml", registry: registry)
/// }
/// ```
public struct Runner: Sendable {
    public let store: any MilepostStore
    /// Where this host's `scope: host` steps are recorded (`--host-store`); nil when the manifest
    /// has none (a run of a manifest with host steps and no host store is refused before any step).
    public let hostStore: (any MilepostStore)?
    public let options: RunOptions
    /// Where the run logs (steps get it with their id in the metadata); quiet unless the app passes
    /// its own.
    public let logger: Logger

    /// A runner of `store`. Without `logger` nothing is logged: an app's swift-log set-up, or the
    /// lack of one, is never written to on the library's behalf.
    public init(
        store: any MilepostStore, hostStore: (any MilepostStore)? = nil, options: RunOptions = RunOptions(),
        logger: Logger = Logger(label: "milepost", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.store = store
        self.hostStore = hostStore
        self.options = options
        self.logger = logger
    }

    // MARK: - Running

    /// Runs every pending step up to `target`, one checkpoint per step.
    ///
    /// When the stored version already is `target`, nothing is interrupted and the manifest has the
    /// digest the state was last planned with (`StoredState.plannedWith`), this returns `.upToDate`
    /// without planning or taking the lock; with `options.manifestInputs`, without calling
    /// `loadManifest` either (the pre-start fast path). Otherwise it plans under the lock, and when
    /// it finds or makes the store up to date it records the manifest's digest, so the next run
    /// is fast again. With `options.labels` it always plans and records no digest.
    /// - throws: the manifest's errors, or `StoreError` (a bad stored version is `StoreError.unreadableState`).
    public func run(to target: Version, manifest loadManifest: () throws -> Manifest) async throws -> RunReport {
        try await RunTelemetry.run(store: store, to: target, phase: options.phase) {
            try await runUntraced(to: target, manifest: loadManifest)
        }
    }

    private func runUntraced(to target: Version, manifest loadManifest: () throws -> Manifest) async throws -> RunReport {
        try refuseFleetStoreAsHostStore()
        let startedAt = ContinuousClock.now
        let seen = options.dryRun ? nil : try await store.readState()
        if !options.createsStore, try await options.dryRun ? store.readState() == nil : seen == nil {
            throw NewStoreRefused(location: store.location)
        }
        // A run with --labels plans whatever the digest says: the steps it leaves out are not up to
        // date; so does a contract or background run: the digest vouches for the pre-start phase only.
        let unscoped = options.labels == nil && options.phase == .preStart ? seen : nil
        if let unscoped, let inputs = options.manifestInputs {
            let digest = inputs.digest(definitionFiles: unscoped.plannedWith?.files ?? [])
            if let report = upToDate(unscoped.head, at: target, manifest: digest),
               try await hostUpToDate(nil, at: target, digest: digest) {
                return report
            }
        }
        let manifest = try loadManifest()
        if let unscoped, let report = upToDate(unscoped.head, at: target, manifest: manifest.digest),
           try await hostUpToDate(manifest, at: target, digest: manifest.digest) {
            return report
        }
        try refuseStepsTheStoreCannotRun(manifest)
        try refuseHostStepsWithoutHostStore(manifest)
        if options.dryRun {
            let state = try await store.readState()
            return try await dryRun(manifest, state: state, lockHolder: try await store.lockHolder(), to: target)
        }
        let waited = try await waitForBackgroundSteps(manifest, to: target)
        if !waited, let seen, let report = try await upToDateUnlocked(manifest, state: seen, to: target) { return report }
        let deadline = try await runDeadline(startedAt: startedAt)
        let grace = StopGrace(options.terminationGrace)
        return try await withLock(app: manifest.app, stopGrace: grace) { locked, journal in
            try await withHostLock(manifest, journal: journal) { host in
                try await runLocked(
                    manifest, to: target, on: locked, host: host, journal: journal, grace: grace, seenVersion: seen?.version,
                    deadline: deadline)
            }
        }
    }

    /// The up-to-date decision without a plan: the `.upToDate` report when the state is at `target`,
    /// no step is in progress and no revert unfinished, and `manifest` (the digest of the manifest
    /// now) is the digest the state was last planned with; nil when the run must plan. Takes the
    /// state's head, as the pre-start fast path reads it (`MilepostStore.stateHeadReader`);
    /// `StoredState.head` gives it from a whole state.
    package func upToDate(_ head: StoredStateHead, at target: Version, manifest: ManifestDigest?) -> RunReport? {
        guard !head.hasStepInProgress, head.version == target, let manifest, head.plannedWith == manifest else { return nil }
        return RunReport(
            outcome: .upToDate, run: nil, app: head.app, from: target, to: target, steps: [], plan: nil,
            interrupted: nil, doneByAnotherRunner: false)
    }

    /// The up-to-date decision from the state read without the lock: the `.upToDate` report when
    /// a plan against it finds nothing for this run to do; nil when the run must take the lock.
    /// What this run does not run (a background step the background runner is running right now,
    /// holding the lock for hours) then keeps no pre-start run waiting. Safe without the lock:
    /// the state is read whole, and other runs only complete more of it. Records no digest: when
    /// one is due and nobody holds the lock, this returns nil and the locked path records it.
    private func upToDateUnlocked(_ manifest: Manifest, state: StoredState, to target: Version) async throws -> RunReport? {
        let host = try await readHostView()
        let plan = try await plan(manifest, state: state, to: target, host: host)
        guard case .upToDate = try decide(plan, state: state, hostState: host?.state, manifest: manifest) else { return nil }
        // With the lock free, the locked path records the digest, so the next start is fast again.
        if options.labels == nil, options.phase == .preStart, state.plannedWith != manifest.digest,
           try await store.lockHolder() == nil {
            return nil
        }
        return RunReport(
            outcome: .upToDate, run: nil, app: manifest.app ?? state.app, from: target, to: target, steps: [], plan: plan,
            interrupted: nil, doneByAnotherRunner: false)
    }

    /// Takes the store's lock for `body` under a new run's journal and releases it however `body`
    /// ends (`LockedStore.holding(stopGrace:_:)`: a lost lease cancels `body` and is thrown).
    /// - throws: `StoreBusy` when the wait for the lock runs out, or what `body` throws.
    func withLock<Result: Sendable>(
        app: String?, stopGrace: StopGrace? = nil, _ body: @escaping @Sendable (any LockedStore, RunJournal) async throws -> Result
    ) async throws -> Result {
        let journal = RunJournal(run: RunJournal.newRunID(), app: app)
        let holder = LockHolder(pid: ProcessIdentity.pid, host: ProcessIdentity.host, since: Timestamp.now(), run: journal.run)
        return try await lock(store, holder: holder).holding(stopGrace: stopGrace) { try await body($0, journal) }
    }

    /// Takes `store`'s lock for `holder` within the run's lock timeout, the wait recorded
    /// (`RunTelemetry.lockWait`): how a run takes the lock of its fleet store and of its host store.
    /// - throws: `StoreBusy` when the wait runs out, naming the holder and the step it runs.
    func lock(_ store: any MilepostStore, holder: LockHolder) async throws -> any LockedStore {
        do {
            return try await RunTelemetry.lockWait(store: store) {
                try await store.lock(timeout: options.lockTimeout, holder: holder)
            }
        } catch let error as StoreError {
            guard case .lockTimeout(_, _, let holder) = error else { throw error }
            throw StoreBusy(.lock(error), holder: holder, step: StoreBusy.holderStep(try? await store.readState(), holder: holder))
        }
    }

    /// What a run would do, from the stored state; writes nothing and takes no lock.
    public func plan(_ manifest: Manifest, to target: Version) async throws -> Plan {
        try await planWithState(manifest, to: target).plan
    }

    /// `plan(_:to:)`, with the state it was made from.
    func planWithState(_ manifest: Manifest, to target: Version) async throws -> (plan: Plan, state: StoredState?) {
        try refuseFleetStoreAsHostStore()
        try refuseStepsTheStoreCannotRun(manifest)
        let state = try await store.readState()
        return (try await plan(
            manifest, state: state, to: target, lockHolder: try await store.lockHolder(), host: try await readHostView()), state)
    }

    /// Plans from the stored version, or the manifest's baseline when nothing is stored. Every
    /// path that meets a manifest with the state plans through here.
    /// - parameter lockHolder: who holds the lock, when the caller does not: tells a running step from an interrupted one.
    /// - throws: `OtherApplicationError` when the state is another application's.
    /// - parameter host: the host store's state, for the host steps; nil: they are planned as on a new host.
    func plan(
        _ manifest: Manifest, state: StoredState?, to target: Version, lockHolder: LockHolder? = nil, host: HostView? = nil
    ) async throws -> Plan {
        try OtherApplicationError.check(manifest, state, store: store.location)
        let (from, origin): (Version, Plan.Origin) =
            if let state { (state.version, .stored) } else { (manifest.baseline, .baseline) }
        let history = StoreHistory(store: store, logger: logger)
        let lateFloor = try await lateFloor(manifest, state: state, history: history)
        let scope = PlanScope(
            labels: options.labels, freshInstall: try await isFreshInstall(manifest, state: state, history: history),
            phase: options.phase, recordsFreshInstall: options.freshInstall == .record)
        return Planner.plan(
            manifest, state: state, from: from, origin: origin, to: target, lockHolder: lockHolder,
            lateFloor: lateFloor, scope: scope, host: try await hostRecords(manifest, host),
            approvals: try await approvals(manifest, state: state, to: target, scope: scope, history: history))
    }

    // MARK: - Deciding

    private enum Decision {
        case downgrade
        case stopRequired(RequiredStop)
        case lateRefused
        case blocked(InProgressStep)
        case revertUnfinished(UnfinishedRevert)
        case upToDate
        case planChanged([PlanChange])
        case run([ManifestStep])
    }

    /// What a run does with `plan`, made from `state` (the fleet store's) and `hostState` (the host
    /// store's, when the run records host steps): every guard looks at both stores alike.
    /// - throws: `ManifestError.invalid` when the manifest moved a completed step between the two
    ///   (`Plan.scopeMoveErrors(file:)`).
    private func decide(_ plan: Plan, state: StoredState?, hostState: StoredState?, manifest: Manifest) throws(ManifestError) -> Decision {
        // No version is ready while a revert is unfinished (`Readiness`): an older release waits for it too.
        if plan.isDowngrade { return state?.reverting.map(Decision.revertUnfinished) ?? .downgrade }
        if let stop = plan.requiredStop { return .stopRequired(stop) }
        if !plan.lateRefused.isEmpty { return .lateRefused }
        let moved = plan.scopeMoveErrors(file: manifest.source.path)
        if !moved.isEmpty { throw .invalid(moved, source: manifest.source) }
        // A step another runner is running now (only a dry run, which takes no lock, sees one) blocks
        // nothing; nor does a step of a phase this run does not run (a background step stopped mid-way
        // waits for the background runner, which resumes it).
        // A device's policy may run it again instead (`InterruptedStepPolicy.retry`).
        let marks = [state, hostState].lazy.compactMap { $0 }.flatMap(\.interruptedMarks)
        if plan.running == nil, options.interruptedSteps == .block, let interrupted = marks.first(where: { mark in
            guard let step = manifest.step(id: mark.id) else { return true }
            return plan.admits(step) && !step.runsAgain(afterInterruption: mark)
        }) {
            return .blocked(interrupted)
        }
        if let reverting = state?.reverting { return .revertUnfinished(reverting) }
        if state != nil, plan.from == plan.to, plan.pending.isEmpty { return .upToDate }
        // A reviewed plan runs exactly its steps, all of them approved, or none.
        if let reviewed = options.reviewedPlan {
            let changes = reviewed.changes(since: plan, state: state, manifest: manifest)
            return changes.isEmpty ? .run(plan.approvalGate == nil ? plan.pending : []) : .planChanged(changes)
        }
        // Up to the first step awaiting approval, where the run stops.
        return .run(plan.runnable)
    }

    private func dryRun(
        _ manifest: Manifest, state: StoredState?, lockHolder: LockHolder?, to target: Version
    ) async throws -> RunReport {
        let host = try await readHostView()
        let plan = try await plan(manifest, state: state, to: target, lockHolder: lockHolder, host: host)
        let decision = try decide(plan, state: state, hostState: host?.state, manifest: manifest)
        if case .run(let steps) = decision { try manifest.requireVariables(of: steps) }
        let (outcome, interrupted): (RunReport.Outcome, InProgressStep?) = switch decision {
        case .downgrade: (downgrade(to: target, from: plan.from, state: state).outcome, nil)
        case .stopRequired: (.stopRequired, nil)
        case .lateRefused: (.lateRefused, nil)
        case .blocked(let running): (.blocked, running)
        case .revertUnfinished: (.revertUnfinished, nil)
        case .upToDate: (.upToDate, nil)
        case .planChanged: (.planChanged, nil)
        case .run: (.dryRun, nil)
        }
        var report = RunReport(
            outcome: outcome, run: nil, app: manifest.app, from: plan.from, to: target, steps: [], plan: plan,
            interrupted: interrupted, doneByAnotherRunner: false)
        if outcome == .revertUnfinished { report.reverting = state?.reverting }
        if case .planChanged(let changes) = decision { report.planChanges = changes }
        if case .downgrade = decision {
            report.floor = state?.floor
            report.refusal = downgrade(to: target, from: plan.from, state: state).refusal
        }
        return report
    }

    /// A target below the stored version (or, with nothing stored, below the baseline `from`):
    /// allowed with `allowDowngrade`; compatible when the store's compatibility floor admits it
    /// (`CompatibilityFloor.refusal`, the rule `Readiness` gives `wait` and `status`); refused otherwise.
    private func downgrade(
        to target: Version, from: Version, state: StoredState?
    ) -> (outcome: RunReport.Outcome, refusal: DowngradeRefusal?) {
        if options.allowDowngrade { return (.downgradeAllowed, nil) }
        let refusal = CompatibilityFloor.refusal(of: target, stored: from, floor: state?.floor)
        return (refusal == nil ? .downgradeCompatible : .downgradeRefused, refusal)
    }

    // MARK: - Applying

    private func runLocked(
        _ manifest: Manifest, to target: Version, on locked: any LockedStore, host: (any LockedStore)?, journal: RunJournal,
        grace: StopGrace, seenVersion: Version?, deadline: RunDeadline?
    ) async throws -> RunReport {
        let state = try await readStateWaitingForOrphanedStep(locked)
        // Under its lock when the run records host steps; else only read, for what it says about the manifest.
        let hostState = if let host { try await readStateWaitingForOrphanedStep(host) } else { try await hostStore?.readState() }
        let plan = try await plan(manifest, state: state, to: target, host: hostStore.map { _ in HostView(state: hostState) })
        var hooks: [RunReport.StepResult] = []
        func report(_ outcome: RunReport.Outcome, steps: [RunReport.StepResult] = [], interrupted: InProgressStep? = nil) -> RunReport {
            var report = RunReport(
                outcome: outcome, run: outcome == .upToDate ? nil : journal.run, app: manifest.app, from: plan.from,
                to: target, steps: steps, plan: plan, interrupted: interrupted,
                doneByAnotherRunner: outcome == .upToDate && seenVersion != state?.version)
            report.hooks = hooks
            return report
        }
        let points = CommitPoints(trap: options.commitTrap)
        let context = RunContext(
            locked: locked, journal: journal, points: points, grace: grace, from: plan.from, to: target,
            directory: manifest.directory, deadline: deadline, approvals: plan.approvals)
        let hostContext = host.map {
            RunContext(
                locked: $0, journal: journal, points: points, grace: grace, from: plan.hostFrom ?? manifest.baseline,
                to: target, directory: manifest.directory, deadline: deadline, approvals: plan.approvals)
        }
        /// Appends `records`, ending with `run-finished`: the run's `run-finished` commit point (a run
        /// refused at its start appends its `run-started` with it).
        func appendRunFinished(_ records: [JournalRecord]) async throws {
            try await points.pass(.runFinished) { try await locked.append(records) }
        }
        /// The host store's state once this run is done with it: at the target, planned with this manifest.
        func finishedHostState(_ state: StoredState?) -> StoredState? {
            guard host != nil else { return nil }
            var finished = state ?? StoredState(app: manifest.app, version: target, updatedAt: Timestamp.now())
            finished.version = target
            finished.app = manifest.app ?? finished.app
            if options.labels == nil { finished.plannedWith = manifest.digest }
            return finished
        }
        /// Runs the hooks of `phase` (only around a run with steps to run); returns the first that failed.
        func runHooks(_ phase: ManifestHooks.Phase) async throws -> RunReport.StepResult? {
            let results = try await self.runHooks(phase, of: manifest, in: context)
            hooks += results
            return results.first { $0.status != .succeeded }
        }
        let started = journal.record(.runStarted, from: plan.from, to: target, phase: options.phase, plan: options.reviewedPlan?.digest)
        switch try decide(plan, state: state, hostState: hostState, manifest: manifest) {
        case .downgrade:
            let (outcome, refusal) = downgrade(to: target, from: plan.from, state: state)
            try await appendRunFinished([started, journal.record(
                .runFinished, from: plan.from, to: target, error: refusal?.description, outcome: .init(outcome))])
            var downgrade = report(outcome)
            downgrade.floor = state?.floor
            downgrade.refusal = refusal
            return downgrade
        case .stopRequired(let stop):
            try await appendRunFinished([
                started,
                journal.record(.runFinished, from: plan.from, to: target, error: stop.message(from: plan.from, to: target),
                               outcome: .stopRequired),
            ])
            return report(.stopRequired)
        case .lateRefused:
            try await appendRunFinished([
                started,
                journal.record(.runFinished, from: plan.from, to: target,
                               error: RunFailure.lateRefusal(plan.lateRefused.map(\.step.id)), outcome: .lateRefused),
            ])
            return report(.lateRefused)
        case .blocked(let running):
            logger.notice(
                "an interrupted step stops every run until it is resolved (or RunOptions.interruptedSteps is .retry)",
                metadata: ["step": "\(running.id)", "since": "\(running.since)", "host": "\(running.host)"])
            try await appendRunFinished([started, journal.blocked(by: running, from: plan.from, to: target)])
            return report(.blocked, interrupted: running)
        case .revertUnfinished(let reverting):
            try await appendRunFinished([
                started,
                journal.record(.runFinished, from: plan.from, to: target,
                               error: RevertError.unfinished(to: reverting.to).description, outcome: .revertUnfinished),
            ])
            var refused = report(.revertUnfinished)
            refused.reverting = reverting
            return refused
        case .planChanged(let changes):
            try await appendRunFinished([
                started,
                journal.record(.runFinished, from: plan.from, to: target, error: RunFailure.planChanged(changes), outcome: .planChanged),
            ])
            var refused = report(.planChanged)
            refused.planChanges = changes
            return refused
        case .upToDate:
            // Planned against this very state and found up to date: the next run with this manifest need not plan.
            if let host, let finished = finishedHostState(hostState), finished != hostState {
                try await points.pass(.runFinished) { try await host.commit(finished, journal: []) }
            }
            if var state, options.labels == nil, state.plannedWith != manifest.digest {
                state.plannedWith = manifest.digest
                try await points.pass(.runFinished) { try await locked.commit(state, journal: []) }
            }
            return report(.upToDate)
        case .run(let steps):
            try manifest.requireVariables(of: steps)  // before anything is written
            /// Ends the run before `refusal`'s step, which no longer fits the deadline.
            func deadlineRefused(_ refusal: DeadlineRefusal, steps results: [RunReport.StepResult]) -> RunReport {
                var refused = report(.deadlineRefused, steps: results)
                refused.deadlineRefusal = refusal
                return refused
            }
            // Before anything is written or any hook runs: a first step that does not fit leaves the state as it was.
            if let first = steps.first, let refusal = deadline?.refusal(of: first) {
                try await appendRunFinished([started, journal.record(
                    .runFinished, from: plan.from, to: target, step: first.id, error: refusal.message, outcome: .deadlineRefused)])
                return deadlineRefused(refusal, steps: [])
            }
            var current = state ?? StoredState(app: manifest.app, version: plan.from, updatedAt: Timestamp.now())
            current.app = manifest.app ?? current.app
            var hostCurrent = hostState
                ?? StoredState(app: manifest.app, version: plan.hostFrom ?? manifest.baseline, updatedAt: Timestamp.now())
            try await points.pass(.runStarted) { try await locked.append([started]) }
            if let host {
                try await points.pass(.runStarted) { try await host.append([journal.record(.runStarted, from: hostContext?.from, to: target)]) }
            }
            /// Appends the `run-finished` record to the host store's journal too.
            func finish(_ outcome: JournalRecord.Outcome, stoppedAt step: RunReport.StepResult?) async throws {
                try await finish(outcome, step: step?.id, error: step?.error)
            }
            func finish(_ outcome: JournalRecord.Outcome, step: String?, error: String?) async throws {
                try await hostContext?.finish(outcome, step: step, error: error)
                try await context.finish(outcome, step: step, error: error)
            }
            if !steps.isEmpty, let failed = try await runHooks(.beforeRun) {
                let outcome: RunReport.Outcome = if case .failed = StepsEnd(stoppedAt: failed) { .failed } else { .interrupted }
                try await appendRunFinished([journal.record(
                    .runFinished, from: plan.from, to: target, step: failed.id,
                    error: RunFailure.hookFailed(failed.id, error: failed.error), outcome: .init(outcome))])
                return report(outcome)
            }
            var (results, end): ([RunReport.StepResult], StepsEnd) = ([], .finished)
            // In threshold order, each step recorded in its own store: the host steps in the host store's.
            for segment in StepSegment.split(steps) {
                let numbering = (first: results.count + 1, total: steps.count)
                let applied = if segment.scope == .host, let hostContext {
                    try await applySteps(segment.steps, direction: .forward, state: &hostCurrent, in: hostContext, numbering: numbering)
                } else {
                    try await applySteps(segment.steps, direction: .forward, state: &current, in: context, numbering: numbering)
                }
                results += applied.results
                end = applied.end
                guard case .finished = end else { break }
            }
            switch end {
            case .finished:
                break
            case .failed(let step):
                _ = try await runHooks(.onFailure)
                try await finish(.failed, stoppedAt: step)
                return report(.failed, steps: results)
            case .interrupted(let step):
                try await finish(.interrupted, stoppedAt: step)
                return report(.interrupted, steps: results)
            case .deadlineRefused(let refusal):
                try await finish(.deadlineRefused, step: refusal.step, error: refusal.message)
                return deadlineRefused(refusal, steps: results)
            }
            if let gate = plan.approvalGate {
                try await finish(.awaitingApproval, step: gate.step.id, error: RunFailure.awaitingApproval(gate.step.id))
                return report(.awaitingApproval, steps: results)
            }
            if !steps.isEmpty { _ = try await runHooks(.afterRun) }
            // A manifest with contract steps declares its other steps compatible with older
            // releases: the floor starts where it found the store (a fresh install, which ran the
            // contract steps too, at the target: no older release ran on it); one without keeps none.
            current.floor = manifest.steps.contains { $0.phase == .contract }
                ? current.floor ?? CompatibilityFloor(version: plan.scope.freshInstall ? target : plan.from) : nil
            current.version = target
            current.updatedAt = Timestamp.now()
            // Every pending step ran: planning this manifest against the new state finds it up to date.
            if options.labels == nil { current.plannedWith = manifest.digest }
            // A fresh install that records its target says so as `milepost baseline` does: the
            // steps it left out are at or below the store's start, neither late nor pending later.
            let recorded = plan.scope.recordsFreshInstall ? [journal.record(.baseline, from: plan.from, to: target)] : []
            if let host, let finished = finishedHostState(hostCurrent) {
                try await points.pass(.runFinished) {
                    try await host.commit(finished, journal: [
                        journal.record(.runFinished, from: hostContext?.from, to: target, outcome: .succeeded)
                    ])
                }
            }
            try await points.pass(.runFinished) { [current] in
                try await locked.commit(current, journal: recorded + [
                    journal.record(.runFinished, from: plan.from, to: target, outcome: .succeeded)
                ])
            }
            return report(.succeeded, steps: results)
        }
    }
}
