/// When in a rollout a step runs (`phase:`): before the new release starts, once no older release
/// is left, or beside the running release. See docs/manifest.md, "Phases".
public enum StepPhase: String, Sendable, Codable, CaseIterable {
    /// The default: runs in the pre-start run (`run --to V`), before the release starts. Older
    /// releases still running beside it must keep working: an expansion (add a column, write both formats).
    case preStart = "pre-start"
    /// Breaks older releases (drop the old column): a plain `run --to V` leaves it waiting for the
    /// rollout; it runs in `run --to V --phase contract`, or at the latest before the steps of the
    /// next release's run. The store's compatibility floor rises to its threshold when it runs.
    case contract
    /// Long work off the start path: a plain run leaves it to the background runner
    /// (`run --to V --phase background`), which resumes it at its cursor after a crash.
    case background
}
