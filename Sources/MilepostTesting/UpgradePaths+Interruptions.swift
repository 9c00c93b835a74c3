public import Milepost
import Synchronization

// Crash-testing each upgrade path: `milepost test` for an app's own steps, in Swift Testing.
extension UpgradePaths {
    /// Crash-tests the upgrade from each of `versions` to `target`. Each path runs uninterrupted
    /// first (the reference), recording the commit points it passes (`CommitPoint`: a step's
    /// start, its cursors and progress, its end, the run's records); then once per crash point
    /// `selection` chooses (`CrashPoint.trials`), in a scenario of its own: the run stops there as a
    /// crash would (it waits there for ever and nothing more it tries is written), the store is
    /// reopened from disk, and the run goes on as the app's next launch would — with
    /// `options.interruptedSteps` (`.retry`: run the step again; `.block`: the run stops at it,
    /// and the trial resolves it with `.retry`, as an operator would, which counts against the
    /// step) — until it finishes. Its end (version, completed and owed steps, `appState`) is
    /// compared with the reference's, and the reference's with a fresh install's.
    ///
    /// Unlike `milepost test`'s SIGKILL, the run is stopped at a commit, not at any instant: what a
    /// step writes to its own files between two commits is never torn, and work it runs in tasks
    /// of its own beside the one awaiting the commit goes on.
    /// - Parameters:
    ///   - selection: which crash points get a trial (all of them by default; a sample with
    ///     `TrialSelection(seed:maxTrials:)`); its seed is in the result.
    ///   - prepare, appState: as in `compare(from:to:options:prepare:appState:)`, for every trial too.
    /// - Returns: one crash test per path, in the order of `versions`.
    /// - throws: `UpgradeScenarioError.freshInstallFailed`, `.uninterruptedUpgradeFailed`; what
    ///   `prepare`, `appState`, the manifest or the store throw.
    public func interruptions<App: Equatable & Sendable>(
        from versions: [Version], to target: Version, options: RunOptions = RunOptions(),
        selection: TrialSelection = TrialSelection(seed: 0),
        prepare: (_ scenario: UpgradeScenario, _ installedAt: Version?) async throws -> Void = { _, _ in },
        appState: (UpgradeScenario) async throws -> App
    ) async throws -> [InterruptionPath] {
        let fresh = try await freshInstall(to: target, options: options, prepare: prepare, appState: appState)
        var paths: [InterruptionPath] = []
        for version in versions {
            let recorded = Mutex<[CommitPoint]>([])
            var recording = options
            recording.commitTrap = CommitTrap { crash in
                if crash.moment == .before { recorded.withLock { $0.append(crash.point) } }
            }
            let scenario = try await scenario(installedAt: version, options: options, prepare: prepare)
            let upgraded = try await scenario.run(to: target, options: recording)
            guard !upgraded.report.outcome.isFailure else {
                throw UpgradeScenarioError.uninterruptedUpgradeFailed(from: version, outcome: upgraded.report.outcome)
            }
            let reference = try await endState(of: scenario, after: upgraded, options: options, appState: appState)
            let freshDifferences = UpgradePathComparison(
                from: version, to: target, result: upgraded, upgrade: reference, fresh: fresh,
                comparesCompleted: options.freshInstall == .runAll
            ).differences
            let points = recorded.withLock { $0 }
            var trials: [InterruptionTrial] = []
            for crash in selection.choose(from: CrashPoint.trials(in: points)) {
                trials.append(try await trial(
                    crash, from: version, to: target, reference: reference, options: options, prepare: prepare, appState: appState))
            }
            paths.append(InterruptionPath(
                from: version, to: target, points: points, trials: trials,
                freshInstallDifference: freshDifferences.isEmpty ? nil : freshDifferences.map(\.description).joined(separator: "; ")))
        }
        return paths
    }

    /// `interruptions(from:to:options:selection:prepare:appState:)`, throwing
    /// `InterruptionMismatch` (every failure, each naming its step and commit point) unless every
    /// trial of every path agrees and each path ends where a fresh install does.
    public func verifyInterruptions<App: Equatable & Sendable>(
        from versions: [Version], to target: Version, options: RunOptions = RunOptions(),
        selection: TrialSelection = TrialSelection(seed: 0),
        prepare: (_ scenario: UpgradeScenario, _ installedAt: Version?) async throws -> Void = { _, _ in },
        appState: (UpgradeScenario) async throws -> App
    ) async throws {
        let paths = try await interruptions(
            from: versions, to: target, options: options, selection: selection, prepare: prepare, appState: appState)
        guard paths.allSatisfy(\.agrees) else { throw InterruptionMismatch(paths: paths, seed: selection.seed) }
    }

    /// One trial: a scenario at `version`, its run stopped at `crash`, the store reopened, the
    /// runs after it, and their end compared with `reference`.
    private func trial<App: Equatable & Sendable>(
        _ crash: CrashPoint, from version: Version, to target: Version, reference: UpgradeEndState<App>, options: RunOptions,
        prepare: (UpgradeScenario, Version?) async throws -> Void, appState: (UpgradeScenario) async throws -> App
    ) async throws -> InterruptionTrial {
        let scenario = try await scenario(installedAt: version, options: options, prepare: prepare)
        let abandonment = RunAbandonment(at: crash)
        var stopping = options
        stopping.commitTrap = abandonment.trap
        let abandoned = Task { [stopping] in
            defer { abandonment.runEnded() }
            return try await scenario.run(to: target, options: stopping)
        }
        // Once the trial is done with it, the abandoned run unwinds (writing nothing), before its scenario goes.
        func finish(_ trial: InterruptionTrial) async -> InterruptionTrial {
            abandonment.release()
            _ = try? await abandoned.value
            return trial
        }
        guard await abandonment.outcome() else {
            return await finish(InterruptionTrial(
                crash: crash, reached: false, recovery: nil, unfinished: nil, difference: nil, previousRelease: nil))
        }
        try scenario.reopenStoreFromDisk()
        let journalStart = try await scenario.store.readJournal().count
        var resumed = try await scenario.run(to: target, options: options)
        if resumed.report.outcome == .blocked, let blocking = resumed.report.interrupted?.id {
            _ = try await Runner(store: scenario.store, options: options).maintenance.resolve(blocking, .retry)
            resumed = try await scenario.run(to: target, options: options)
        }
        let recovery = TrialRecovery(of: crash.point.step, in: Array(try await scenario.store.readJournal().dropFirst(journalStart)))
        let outcome = resumed.report.outcome
        guard outcome == .succeeded || outcome == .upToDate else {
            return await finish(InterruptionTrial(
                crash: crash, reached: true, recovery: recovery, unfinished: "the next run ended \(outcome.rawValue)",
                difference: nil, previousRelease: nil))
        }
        let differences = UpgradePathComparison(
            from: version, to: target, result: resumed,
            upgrade: try await endState(of: scenario, after: resumed, options: options, appState: appState), fresh: reference,
            comparesCompleted: true
        ).differences
        return await finish(InterruptionTrial(
            crash: crash, reached: true, recovery: recovery, unfinished: nil,
            difference: differences.isEmpty ? nil
                : differences.map { $0.description(upgrade: "the resumed upgrade", other: "the uninterrupted one") }.joined(separator: "; "),
            previousRelease: nil))
    }
}

/// `UpgradePaths.verifyInterruptions`: some trials did not end as the uninterrupted upgrade did, or
/// a path does not end where a fresh install does.
public struct InterruptionMismatch: Error, CustomStringConvertible {
    /// Every path's crash test.
    public let paths: [InterruptionPath]
    /// The seed that chose the points: `TrialSelection(seed:)` tries the same ones again.
    public let seed: UInt64

    /// Each failure, `from 2.0: 2.1/removeEmptyDailys is not safe to resume after an interruption just before its cursor commit #2: …`.
    public var description: String {
        paths.flatMap { path in path.findings.filter(\.isFailure).map { "from \(path.from): \($0)" } }.joined(separator: "\n")
            + "\n(seed \(seed))"
    }
}
