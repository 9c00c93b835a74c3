/// When a step runs again after it completed: `repeat: on-change` makes a step *repeatable*
/// (Flyway's `R__` migrations, Liquibase's `runOnChange`).
///
/// A repeatable step is due when a run's target reaches its threshold and the store has no record
/// of it with its current fingerprint (`ManifestStep.fingerprint`: its entry as written and its
/// registered revision): it never ran there, or its entry or revision changed since. Due
/// repeatable steps run after the run's one-time steps, in manifest order. A repeatable step is
/// never late nor skipped for being at or below the stored version, and it is idempotent (it runs
/// again after an interruption): running again is what it is for.
public enum RepeatPolicy: String, Sendable, Codable, CaseIterable {
    /// Runs again whenever its fingerprint differs from the one recorded when it last completed.
    case onChange = "on-change"
}
