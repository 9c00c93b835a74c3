public import Milepost

/// Every upgrade path a release supports, each run from its seeded state to the target and
/// compared with a fresh install of the target, so CI proves that 1.0 → 3.0 and 2.0 → 3.0 end
/// where a fresh 3.0 starts (what `milepost plan --from 1.0 --from 2.0 --to 3.0` plans).
///
/// Each path and the fresh install get a `UpgradeScenario` of their own (a fresh temporary
/// directory and store, the same manifest and registry). A path from `A` starts from a store at
/// `A` that records as done the one-time steps a run from the manifest's baseline to `A` runs in
/// the scope of the options (`Planner.done(reaching:of:scope:)`, the model `milepost plan --from`
/// plans by: no `when:` steps, which ran or not depending on when the host was installed, no
/// repeatable steps, which run again as on a fresh install, and the contract and background steps
/// the run passed still owed), with its history starting at the baseline, and `prepare` gives it
/// the app's own data as a host at `A` has it.
///
/// ```swift
/// let paths = UpgradePaths(manifest: yaml, registry: registry)
/// try await paths.verify(from: ["1.0", "2.0"], to: "3.0", prepare: writeSchema) { try readSchema($0) }
/// ```
public struct UpgradePaths: Sendable {
    /// Builds each scenario's registry for its directory.
    let registry: @Sendable (_ directory: String) throws -> StepRegistry
    let writeFiles: @Sendable (String) throws -> Void

    /// The paths of the manifest `manifest`'s text.
    public init(manifest: String, registry: StepRegistry) {
        self.init(manifest: manifest) { _ in registry }
    }

    /// The paths of the manifest `manifest`'s text, each scenario (every path, and the fresh
    /// install) with the registry `registry` builds for its directory, as
    /// `UpgradeScenario(manifest:seededAt:completed:registry:)` does.
    public init(manifest: String, registry: @escaping @Sendable (_ directory: String) throws -> StepRegistry) {
        self.registry = registry
        writeFiles = UpgradeScenario.writing(manifest)
    }

    /// The paths of the manifest file your app ships, with the data `files` copied beside it in
    /// each scenario (as `UpgradeScenario(manifestFile:copying:registry:seededAt:completed:)` does).
    public init(manifestFile: String, copying files: [String] = [], registry: StepRegistry) {
        self.init(manifestFile: manifestFile, copying: files) { _ in registry }
    }

    /// The paths of the manifest file your app ships, with the data `files` copied beside it in
    /// each scenario and the registry `registry` builds for that scenario's directory, where the
    /// copies are: the app's data directory of that path.
    ///
    /// ```swift
    /// let paths = UpgradePaths(manifestFile: shipped, copying: [sampleData]) { directory in
    ///     StepRegistry().installing(TiTiSteps.self, using: DailyFile(inDataDirectory: directory))
    /// }
    /// ```
    public init(
        manifestFile: String, copying files: [String] = [], registry: @escaping @Sendable (_ directory: String) throws -> StepRegistry
    ) {
        self.registry = registry
        writeFiles = UpgradeScenario.copying(manifestFile, files)
    }

    /// Runs a fresh install to `target`, then the upgrade from each of `versions` to `target`, all
    /// with `options`, and compares where each upgrade ends with where the fresh install ends
    /// (`UpgradePathComparison`: the run's outcome, the stored version, the completed steps, the
    /// steps still owed and `appState`).
    /// - Parameters:
    ///   - prepare: writes the app's own data into a scenario before its run (its `directory`):
    ///     as a host installed at `nil` (the fresh install: nothing, or what your app creates at
    ///     first launch) or at a version `A` (the upgrade from `A`) has it. Nothing by default.
    ///   - appState: reads the app's end state from a scenario after its run, to compare; return
    ///     what a user would see (a schema, sorted records), not what legitimately differs (times).
    /// - Returns: one comparison per path, in the order of `versions`.
    /// - throws: `UpgradeScenarioError.freshInstallFailed` when the fresh install does not succeed;
    ///   what `prepare`, `appState`, the manifest or the store throw.
    public func compare<App: Equatable & Sendable>(
        from versions: [Version], to target: Version, options: RunOptions = RunOptions(),
        prepare: (_ scenario: UpgradeScenario, _ installedAt: Version?) async throws -> Void = { _, _ in },
        appState: (UpgradeScenario) async throws -> App
    ) async throws -> [UpgradePathComparison<App>] {
        let reference = try await freshInstall(to: target, options: options, prepare: prepare, appState: appState)
        var comparisons: [UpgradePathComparison<App>] = []
        for version in versions {
            let scenario = try await scenario(installedAt: version, options: options, prepare: prepare)
            let upgraded = try await scenario.run(to: target, options: options)
            comparisons.append(UpgradePathComparison(
                from: version, to: target, result: upgraded,
                upgrade: try await endState(of: scenario, after: upgraded, options: options, appState: appState),
                fresh: reference, comparesCompleted: options.freshInstall == .runAll))
        }
        return comparisons
    }

    /// `compare(from:to:options:prepare:appState:)`, throwing `UpgradePathMismatch` (each path
    /// that differs, with its differences) unless every path ends where the fresh install does.
    public func verify<App: Equatable & Sendable>(
        from versions: [Version], to target: Version, options: RunOptions = RunOptions(),
        prepare: (_ scenario: UpgradeScenario, _ installedAt: Version?) async throws -> Void = { _, _ in },
        appState: (UpgradeScenario) async throws -> App
    ) async throws {
        let differing = try await compare(from: versions, to: target, options: options, prepare: prepare, appState: appState)
            .filter { !$0.matches }
        guard differing.isEmpty else {
            throw UpgradePathMismatch(paths: differing.map { UpgradePathMismatch.Path(from: $0.from, to: $0.to, differences: $0.differences) })
        }
    }

    /// Where a fresh install to `target` ends (`compare`'s reference).
    /// - throws: `UpgradeScenarioError.freshInstallFailed` when it does not succeed.
    func freshInstall<App>(
        to target: Version, options: RunOptions, prepare: (UpgradeScenario, Version?) async throws -> Void,
        appState: (UpgradeScenario) async throws -> App
    ) async throws -> UpgradeEndState<App> {
        let fresh = try await scenario(installedAt: nil, options: options, prepare: prepare)
        let installed = try await fresh.run(to: target, options: options)
        guard !installed.report.outcome.isFailure else { throw UpgradeScenarioError.freshInstallFailed(outcome: installed.report.outcome) }
        return try await endState(of: fresh, after: installed, options: options, appState: appState)
    }

    /// A new scenario as a host installed at `version` has it (nil: a fresh install, nothing
    /// stored): its store seeded with the steps a host at `version` has done, then `prepare`d.
    func scenario(
        installedAt version: Version?, options: RunOptions, prepare: (UpgradeScenario, Version?) async throws -> Void
    ) async throws -> UpgradeScenario {
        let scenario = try await UpgradeScenario(registry: registry, seededAt: nil, completed: [], writeFiles: writeFiles)
        if let version {
            let manifest = try scenario.manifest()
            try await scenario.seed(
                at: manifest.baseline,
                completed: Planner.done(reaching: version, of: manifest, scope: PlanScope(labels: options.labels, phase: options.phase)),
                reaching: version)
        }
        try await prepare(scenario, version)
        return scenario
    }

    func endState<App>(
        of scenario: UpgradeScenario, after result: UpgradeResult, options: RunOptions, appState: (UpgradeScenario) async throws -> App
    ) async throws -> UpgradeEndState<App> {
        let manifest = try scenario.manifest()
        let conditioned = Set(manifest.steps.filter { $0.when != nil }.map(\.id))
        let plan = try await Runner(store: scenario.store, options: options).plan(manifest, to: result.report.to)
        return UpgradeEndState(
            version: result.state?.version,
            completed: Set(result.state?.completed.map(\.id) ?? []).subtracting(conditioned),
            owed: plan.entries.filter { [.pending, .interrupted, .running, .waiting].contains($0.status) }.map(\.step.id),
            app: try await appState(scenario))
    }
}
