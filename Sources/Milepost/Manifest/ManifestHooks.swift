/// The manifest's `hooks:`: steps that run around a run that has steps to run, never recorded as
/// completed (they run again around the next such run), journaled as `hook-started`,
/// `hook-succeeded` and `hook-failed`.
///
/// Each hook is an entry like a step's (`name`, `id`, `with`, `timeout`, `retries`, `description`),
/// with the id `PHASE/ID` (`before_run/notify`).
public struct ManifestHooks: Sendable {
    /// Where a hook runs in a run.
    public enum Phase: String, Sendable, CaseIterable {
        /// Before the first step; a failing one stops the run before any step (exit 1).
        case beforeRun = "before_run"
        /// After the last step succeeded, before the run records its new version.
        case afterRun = "after_run"
        /// After a step failed (not after a signal stopped the run).
        case onFailure = "on_failure"
    }

    /// `before_run:`, in order.
    public var beforeRun: [ManifestStep] = []
    /// `after_run:`, in order.
    public var afterRun: [ManifestStep] = []
    /// `on_failure:`, in order.
    public var onFailure: [ManifestStep] = []

    public init() {}

    /// The hooks of `phase`, in order.
    public subscript(phase: Phase) -> [ManifestStep] {
        get {
            switch phase {
            case .beforeRun: beforeRun
            case .afterRun: afterRun
            case .onFailure: onFailure
            }
        }
        set {
            switch phase {
            case .beforeRun: beforeRun = newValue
            case .afterRun: afterRun = newValue
            case .onFailure: onFailure = newValue
            }
        }
    }
}
