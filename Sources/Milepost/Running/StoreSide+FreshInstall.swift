extension StoreSide {
    /// Whether a run on this store is a fresh install (`StepCondition`): the store has no state, or
    /// has reached no version yet — its state is at the manifest's baseline (where an install run
    /// that failed or was interrupted leaves it) and its journal has neither a succeeded run nor a
    /// `baseline`. The journal is read only when the manifest has a `when:` step and the state is at
    /// the baseline, so other stores cost nothing.
    func isFreshInstall(_ manifest: Manifest) async throws -> Bool {
        guard let state else { return true }
        guard state.version == manifest.baseline, manifest.steps.contains(where: { $0.when != nil }) else { return false }
        // Without the journal the store's history is unknown: a store that has a state was installed.
        guard let journal = try await history.records(else: "a fresh install is not told from an upgrade") else { return false }
        return !journal.contains { ($0.event == .runFinished && $0.outcome == .succeeded) || $0.event == .baseline }
    }
}
