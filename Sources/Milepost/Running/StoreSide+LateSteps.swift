extension StoreSide {
    /// The version above which a step that never ran on this store is *late* (`LatePolicy`): the
    /// version the store started from — the `from` of its first run, or the version last given by
    /// `milepost baseline` when that is higher (a baselined store has the effects of the steps
    /// below it, as Flyway's baseline hides the migrations below it from `outOfOrder`) — and never
    /// below the manifest's `baseline:`. A store whose journal tells neither (a legacy store
    /// adopted by a custom `MilepostStore`) has nothing late. Nil without a state.
    ///
    /// The journal is read only when a step could be late, so a store without any costs nothing.
    /// Only the steps this side records count (its `scope`: the fleet store's, or a host store's):
    /// the other store's steps never complete here.
    func lateFloor(_ manifest: Manifest) async throws -> Version? {
        guard let state else { return nil }
        let completed = Set(state.completed.map(\.id))
        let couldBeLate = manifest.steps.contains {
            $0.scope == scope && $0.repeats == nil && $0.when == nil && $0.threshold <= state.version && $0.threshold > manifest.baseline && !completed.contains($0.id)
                && $0.replaces.map(completed.contains) != true
        }
        guard couldBeLate else { return manifest.baseline }
        // Without the journal the baseline is unknown: call nothing late rather than run steps a
        // baselined store already has the effects of.
        guard let journal = try await history.records(else: "late steps are not told apart") else { return state.version }
        let firstRun = journal.first { $0.event == .runStarted }?.from.flatMap { Version($0) }
        let baselined = journal.last { $0.event == .baseline }?.to.flatMap { Version($0) }
        let started = [firstRun, baselined].compactMap { $0 }.max()
        guard let started else { return state.version }
        return max(manifest.baseline, started)
    }
}
