/// What a run does with a *late* step: one whose threshold is at or below the version a store
/// already reached (and above the baseline it started from) that never ran there — typically a
/// hotfix step added to an older release after a newer one was deployed.
///
/// Set for the whole manifest (`late:`) or per step (a step's `late:` wins).
public enum LatePolicy: String, Sendable, Codable, CaseIterable {
    /// It never runs; `plan`, `run`, `status` and `validate --store` warn about it (the default:
    /// what Milepost always did).
    case warn
    /// The next run runs it, in threshold order, before the steps above the stored version.
    case run
    /// A run refuses to start (exit 65) while the store has such a step.
    case fail
}
