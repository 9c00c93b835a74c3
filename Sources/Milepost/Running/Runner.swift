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

    /// The runner's stores and how it takes their locks.
    var stores: RunStores { RunStores(store: store, hostStore: hostStore, lockTimeout: options.lockTimeout, logger: logger) }

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
        try stores.refuseFleetStoreAsHostStore()
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
        if options.dryRun { return try await dryRun(manifest, to: target) }
        let waited = try await waitForBackgroundSteps(manifest, to: target)
        if !waited, let seen, let report = try await answeredUnlocked(manifest, state: seen, to: target) { return report }
        let deadline = try await runDeadline(startedAt: startedAt)
        let grace = StopGrace(options.terminationGrace)
        return try await stores.withLock(app: manifest.app, stopGrace: grace) { locked, journal in
            try await stores.withHostLock(manifest, journal: journal) { host in
                var session = try await RunSession.prepare(
                    self, manifest: manifest, to: target, fleet: locked, host: host, journal: journal, grace: grace,
                    seenVersion: seen?.version, deadline: deadline)
                return try await session.run()
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

    /// The run's answer from the state read without the lock, when it runs no step: the report
    /// when a plan against that state finds the run up to date, or ends it before any step with an
    /// answer the lock cannot change (`RunDecision.Ending.standsWithoutTheLock`: an older release
    /// at or above the floor starts, a required stop still waits); nil when the run must take the
    /// lock. What this run does not run (a background step the background runner is running right
    /// now, holding the lock for hours) then keeps no such start waiting. Safe without the lock:
    /// the state is read whole, and other runs only complete more of it. Writes nothing: when the
    /// lock is free, this returns nil instead wherever the locked path has something to record —
    /// the manifest's digest, or the ending's `run-finished` record.
    private func answeredUnlocked(_ manifest: Manifest, state: StoredState, to target: Version) async throws -> RunReport? {
        // The fleet side as seen before, without its holder: a step in progress there is not taken for a running one.
        let sides = try await readSides(fleet: .seen(state, of: store, scope: .fleet, logger: logger))
        let plan = try await plan(manifest, sides: sides, to: target)
        let decision = try decide(plan, sides: sides, manifest: manifest)
        let recordDue: Bool
        switch decision {
        case .upToDate: recordDue = options.labels == nil && options.phase == .preStart && state.plannedWith != manifest.digest
        case .ended(let ending) where ending.standsWithoutTheLock: recordDue = true
        case .ended, .run: return nil
        }
        // With the lock free, the locked path records what is due: the manifest's digest (so the
        // next start is fast again) or the ending's `run-finished` record.
        if recordDue, try await store.lockHolder() == nil { return nil }
        return report(of: decision, plan: plan, manifest: manifest, to: target)
    }

    /// What a run would do, from the stored state; writes nothing and takes no lock.
    public func plan(_ manifest: Manifest, to target: Version) async throws -> Plan {
        try await planWithState(manifest, to: target).plan
    }

    /// `plan(_:to:)`, with the state it was made from.
    func planWithState(_ manifest: Manifest, to target: Version) async throws -> (plan: Plan, state: StoredState?) {
        try stores.refuseFleetStoreAsHostStore()
        try refuseStepsTheStoreCannotRun(manifest)
        let sides = try await readSides()
        return (try await plan(manifest, sides: sides, to: target), sides.fleet.state)
    }

    /// The run's sides read without their locks, each with its lock's holder: the fleet store's
    /// (unless given, as read before) and the host store's, when the runner has one. Read for a
    /// manifest without host steps too: the host store's records show a step moved out of the host
    /// scope (`Plan.scopeMoved`), and its marks stop a run as the fleet store's do.
    func readSides(fleet: StoreSide? = nil) async throws -> RunSides {
        let fleetSide = if let fleet { fleet } else { try await StoreSide.read(store, scope: .fleet, holder: true, logger: logger) }
        let host = if let hostStore { try await StoreSide.read(hostStore, scope: .host, holder: true, logger: logger) } else { nil as StoreSide? }
        return RunSides(fleet: fleetSide, host: host)
    }

    /// Plans from the fleet side's stored version, or the manifest's baseline when nothing is
    /// stored; the host steps from the host side (none: as on a new host). Every path that meets a
    /// manifest with the state plans through here.
    /// - throws: `OtherApplicationError` when the state is another application's.
    func plan(_ manifest: Manifest, sides: RunSides, to target: Version) async throws -> Plan {
        let fleet = sides.fleet
        try OtherApplicationError.check(manifest, fleet.state, store: store.location)
        let scope = PlanScope(
            labels: options.labels, freshInstall: try await fleet.isFreshInstall(manifest), phase: options.phase,
            recordsFreshInstall: options.freshInstall == .record)
        return Planner.plan(
            manifest, state: fleet.state, from: fleet.from(manifest), origin: fleet.state == nil ? .baseline : .stored, to: target,
            lockHolder: fleet.lockHolder, lateFloor: try await fleet.lateFloor(manifest), scope: scope,
            host: try await sides.host?.records(manifest),
            approvals: try await approvals(manifest, state: fleet.state, to: target, scope: scope, history: fleet.history))
    }

    // MARK: - Deciding

    /// What a run does with `plan`, made from `sides`: every guard looks at the fleet store and
    /// the host store alike.
    /// - throws: `ManifestError.invalid` when the manifest moved a completed step between the two
    ///   (`Plan.scopeMoveErrors(file:)`).
    func decide(_ plan: Plan, sides: RunSides, manifest: Manifest) throws(ManifestError) -> RunDecision {
        let state = sides.fleet.state
        // No version is ready while a revert is unfinished (`Readiness`): an older release waits for it too.
        if plan.isDowngrade {
            if let reverting = state?.reverting { return .ended(.revertUnfinished(reverting)) }
            let (outcome, refusal) = downgrade(to: plan.to, from: plan.from, state: state)
            return .ended(.downgrade(outcome, refusal, floor: state?.floor))
        }
        if let stop = plan.requiredStop { return .ended(.stopRequired(stop)) }
        if !plan.lateRefused.isEmpty { return .ended(.lateRefused(plan.lateRefused.map(\.step.id))) }
        let moved = plan.scopeMoveErrors(file: manifest.source.path)
        if !moved.isEmpty { throw .invalid(moved, source: manifest.source) }
        // A step another runner is running now (only a dry run, which takes no lock, sees one) blocks
        // nothing; nor does a step of a phase this run does not run (a background step stopped mid-way
        // waits for the background runner, which resumes it).
        // A device's policy may run it again instead (`InterruptedStepPolicy.retry`).
        let marks = sides.states.lazy.flatMap(\.interruptedMarks)
        if plan.running == nil, options.interruptedSteps == .block, let interrupted = marks.first(where: { mark in
            guard let step = manifest.step(id: mark.id) else { return true }
            return plan.admits(step) && !step.runsAgain(afterInterruption: mark)
        }) {
            return .ended(.blocked(interrupted))
        }
        if let reverting = state?.reverting { return .ended(.revertUnfinished(reverting)) }
        if state != nil, plan.from == plan.to, plan.pending.isEmpty { return .upToDate }
        // A reviewed plan runs exactly its steps, all of them approved, or none.
        if let reviewed = options.reviewedPlan {
            let changes = reviewed.changes(since: plan, state: state, manifest: manifest)
            return changes.isEmpty ? .run(plan.approvalGate == nil ? plan.pending : []) : .ended(.planChanged(changes))
        }
        // Up to the first step awaiting approval, where the run stops.
        return .run(plan.runnable)
    }

    /// What a run would do, reported from the sides read without their locks; writes nothing.
    private func dryRun(_ manifest: Manifest, to target: Version) async throws -> RunReport {
        let sides = try await readSides()
        let plan = try await plan(manifest, sides: sides, to: target)
        let decision = try decide(plan, sides: sides, manifest: manifest)
        if case .run(let steps) = decision { try manifest.requireVariables(of: steps) }
        return report(of: decision, plan: plan, manifest: manifest, to: target)
    }

    /// The report of `decision` made without the lock, which ran nothing: its ending's outcome and
    /// what the ending says, `.upToDate`, or `.dryRun` for steps a run would run.
    private func report(of decision: RunDecision, plan: Plan, manifest: Manifest, to target: Version) -> RunReport {
        let (outcome, ending): (RunReport.Outcome, RunDecision.Ending?) = switch decision {
        case .ended(let ending): (ending.outcome, ending)
        case .upToDate: (.upToDate, nil)
        case .run: (.dryRun, nil)
        }
        var report = RunReport(
            outcome: outcome, run: nil, app: manifest.app, from: plan.from, to: target, steps: [], plan: plan,
            interrupted: ending?.interrupted, doneByAnotherRunner: false)
        ending?.describe(in: &report)
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
}
