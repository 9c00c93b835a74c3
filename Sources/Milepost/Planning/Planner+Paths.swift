extension Planner {
    /// Plans the upgrade of a store at each of `versions` to `target`, in the order given: one
    /// plan per upgrade path (`milepost plan --from A --from B`), so CI can check every path a
    /// release supports in one call. Each plans a store that reached `A` through the normal phases
    /// (`reached(_:of:scope:)`, origin `.given`): the one-time steps up to `A` done, the contract and
    /// background steps its pre-start runs passed owed — what a real store at `A` runs.
    public static func plans(_ manifest: Manifest, from versions: [Version], to target: Version, scope: PlanScope = PlanScope()) -> [Plan] {
        versions.map { version in
            plan(
                manifest, state: reached(version, of: manifest, scope: PlanScope(labels: scope.labels)), from: version,
                origin: .given, to: target, lateFloor: manifest.baseline, scope: scope)
        }
    }

    /// The one-time steps a store has done when it reached `version` from the manifest's baseline
    /// through runs in `scope` (labels, phase; the pre-start runs by default): those such a run
    /// runs, without `when:` steps (they ran or not depending on when the store was installed) and
    /// repeatable steps (they run again as on a fresh install). The contract and background steps
    /// the runs passed are not among them: they are owed. The one model of a store at a version
    /// that `plan --from` plans and the testing kit's `UpgradePaths` seeds.
    public static func done(reaching version: Version, of manifest: Manifest, scope: PlanScope = PlanScope()) -> [String] {
        plan(manifest, state: nil, from: manifest.baseline, origin: .baseline, to: version, scope: scope)
            .entries.filter { $0.status == .pending && $0.step.when == nil && $0.step.repeats == nil }.map(\.step.id)
    }

    /// The state of a store that reached `version` through runs in `scope` (`done(reaching:of:scope:)`).
    /// Its late floor is the manifest's baseline, where its first run started.
    static func reached(_ version: Version, of manifest: Manifest, scope: PlanScope) -> StoredState {
        let epoch = Timestamp(millisecondsSince1970: 0)
        return StoredState(
            app: manifest.app, version: version,
            completed: done(reaching: version, of: manifest, scope: scope).map { CompletedStep(id: $0, at: epoch, run: "", fingerprint: "") },
            updatedAt: epoch)
    }
}
