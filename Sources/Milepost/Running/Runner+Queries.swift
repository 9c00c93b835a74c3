/// One-line questions about a store, as GRDB's migrator answers `appliedMigrations`,
/// `hasCompletedMigrations` and `hasBeenSuperseded`: each from the rule `run` and `status` use,
/// reading the store and writing nothing.
extension Runner {
    /// The ids of `manifest`'s steps the store records as completed, in the order they run: what
    /// `plan` and `status` call completed (a step whose `replaces:` names a completed one is too;
    /// a `scope: host` step counts from the host store).
    ///
    /// ```swift
    /// let done = try await runner.completedSteps(manifest)   // ["2.1/removeEmptyNotes"]
    /// ```
    public func completedSteps(_ manifest: Manifest) async throws -> [String] {
        let sides = try await readSides()
        let plan = try await plan(manifest, sides: sides, to: sides.fleet.from(manifest))
        return plan.entries.filter { $0.status == .completed }.map(\.step.id)
    }

    /// Whether the store is ready for `target` with `manifest`: nothing pending, interrupted or
    /// failed for it, and the store at `target` or later — the rule of `milepost status --check`
    /// (`StatusReport.isReady`), in the runner's phase and labels (`RunOptions`). False while a
    /// run to `target` has anything left to do.
    ///
    /// ```swift
    /// if try await !runner.hasCompletedSteps(manifest, upTo: "2.7") { showUpgradeProgress() }
    /// ```
    public func hasCompletedSteps(_ manifest: Manifest, upTo target: Version) async throws -> Bool {
        try await status(manifest: manifest, to: target).isReady
    }

    /// Whether a newer release has moved the store past `release`: a `run(to: release)` is refused
    /// (`.downgradeRefused`) because `release` is below the store's compatibility floor — a
    /// contract step of a newer release made older ones incompatible — or, for a store that keeps
    /// no floor, below its stored version (`CompatibilityFloor.refusal`, the rule `run`, `wait` and
    /// `status --check` refuse by). False on an empty store,
    /// and for a `release` the store is at or below, or a compatible older one.
    ///
    /// ```swift
    /// if try await runner.hasBeenSuperseded(for: "1.0") { exitAskingForTheNewerRelease() }
    /// ```
    public func hasBeenSuperseded(for release: Version) async throws -> Bool {
        guard let state = try await store.readState() else { return false }
        return CompatibilityFloor.refusal(of: release, stored: state.version, floor: state.floor) != nil
    }
}
