import MilepostSystem

/// `milepost revert --to V`: undoes the completed steps above V, with the same checkpoints,
/// journal and interruption rules as a run, then stores V.
extension Runner {
    /// What a revert to `target` would undo, from the stored state; writes nothing and takes no lock.
    /// - throws: `RevertError.nothingStored`, `.notBelow`, `.unfinished` when the revert would be
    ///   refused for those reasons (not for steps without a revert: the plan lists them).
    public func revertPlan(_ manifest: Manifest, to target: Version) async throws -> RevertPlan {
        let state = try await store.readState()
        try OtherApplicationError.check(manifest, state, store: store.location)
        return try Self.revertPlan(manifest, state: state, to: target)
    }

    /// Runs the reverts of the completed steps above `target`, in the reverse of the order they ran,
    /// each checkpointed as a step is (`revert-started`, then `revert-succeeded`, `-failed` or
    /// `-interrupted`); a reverted step is no longer completed, so a later run runs it again. The
    /// state says `reverting` from the first checkpoint until `target` is stored: until then a
    /// `run` refuses. An interrupted revert stops the next revert (and run) until `resolve`.
    /// - throws: `RevertError` when it refuses before any revert runs, notably `.irreversible`
    ///   when a completed step above `target` has no revert; the manifest's and the store's errors.
    public func revert(to target: Version, manifest loadManifest: () throws -> Manifest) async throws -> RevertReport {
        let manifest = try loadManifest()
        try refuseStepsTheStoreCannotRun(manifest)
        let seen = try Self.revertPlan(manifest, state: try await store.readState(), to: target)
        if options.dryRun {
            return RevertReport(
                outcome: .dryRun, run: nil, app: manifest.app, from: seen.from, to: target, steps: [], plan: seen,
                interrupted: nil)
        }
        if !seen.irreversible.isEmpty { throw RevertError.irreversible(seen.irreversible) }
        let grace = StopGrace(options.terminationGrace)
        return try await stores.withLock(app: manifest.app, stopGrace: grace) { locked, journal in
            try await revertLocked(manifest, to: target, on: locked, journal: journal, grace: grace)
        }
    }

    /// The plan, or why a revert to `target` is refused before looking at reverts.
    private static func revertPlan(_ manifest: Manifest, state: StoredState?, to target: Version) throws -> RevertPlan {
        guard let state else { throw RevertError.nothingStored }
        if let reverting = state.reverting {
            guard target <= reverting.to else { throw RevertError.unfinished(to: reverting.to) }
        } else if target > state.version {
            throw RevertError.notBelow(target: target, stored: state.version)
        }
        return RevertPlan.plan(manifest, state: state, to: target)
    }

    private func revertLocked(
        _ manifest: Manifest, to target: Version, on locked: any LockedStore, journal: RunJournal, grace: StopGrace
    ) async throws -> RevertReport {
        let state = try await stores.readStateWaitingForOrphanedStep(locked)
        try OtherApplicationError.check(manifest, state, store: store.location)
        let plan = try Self.revertPlan(manifest, state: state, to: target)
        guard var current = state else { throw RevertError.nothingStored }
        if !plan.irreversible.isEmpty { throw RevertError.irreversible(plan.irreversible) }
        func report(_ outcome: RevertReport.Outcome, steps: [RunReport.StepResult] = [], interrupted: InProgressStep? = nil) -> RevertReport {
            RevertReport(
                outcome: outcome, run: outcome == .upToDate ? nil : journal.run, app: manifest.app, from: plan.from, to: target,
                steps: steps, plan: plan, interrupted: interrupted)
        }
        if current.reverting == nil, plan.from == target, plan.steps.isEmpty { return report(.upToDate) }
        let started = journal.record(.runStarted, from: plan.from, to: target)
        let points = CommitPoints(trap: options.commitTrap)
        if let interrupted = current.interruptedMarks.first {
            try await points.pass(.runFinished) {
                try await locked.append([started, journal.blocked(by: interrupted, from: plan.from, to: target)])
            }
            return report(.blocked, interrupted: interrupted)
        }
        try manifest.requireVariables(of: plan.steps, hooks: false)  // before anything is written
        current.app = manifest.app ?? current.app
        current.reverting = UnfinishedRevert(to: target, run: current.reverting?.run ?? journal.run, since: current.reverting?.since ?? Timestamp.now())
        current.updatedAt = Timestamp.now()
        try await points.pass(.runStarted) { [current] in try await locked.commit(current, journal: [started]) }
        let context = RunContext(
            locked: locked, journal: journal, points: points, grace: grace, from: plan.from, to: target,
            directory: manifest.directory)
        let (results, end) = try await applySteps(plan.steps, direction: .revert, state: &current, in: context)
        switch end {
        case .finished:
            break
        case .failed(let step):
            try await context.finish(.failed, stoppedAt: step)
            return report(.failed, steps: results)
        case .interrupted(let step):
            try await context.finish(.interrupted, stoppedAt: step)
            return report(.interrupted, steps: results)
        case .deadlineRefused:
            preconditionFailure("a revert's steps are applied without a deadline")
        }
        current.version = target
        current.reverting = nil
        current.updatedAt = Timestamp.now()
        try await points.pass(.runFinished) { [current] in
            try await locked.commit(current, journal: [journal.record(.runFinished, from: plan.from, to: target, outcome: .succeeded)])
        }
        return report(.succeeded, steps: results)
    }
}
