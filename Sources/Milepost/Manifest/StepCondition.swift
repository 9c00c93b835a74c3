/// A step's `when:`: the kind of run it belongs to. A step without one runs on every kind.
///
/// A run is a *fresh install* while the store has reached no version: it has no state yet, or
/// only the checkpoints of install runs that have not finished (no run has succeeded on it and no
/// version was given to `milepost baseline`). Every other run is an *upgrade*. The condition is
/// decided by the run that passes the step's threshold: a step left out by it does not run later
/// (it is never late), and `plan` and `status` show it `out-of-scope`, never pending.
public enum StepCondition: String, Sendable, Codable, CaseIterable {
    /// Only in a fresh install (seed data, create what an upgrade already has).
    case freshInstall = "fresh-install"
    /// Only in an upgrade of a store that was installed before (convert existing data).
    case upgrade
}
