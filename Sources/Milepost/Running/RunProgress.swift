/// Progress of a run, reported through `RunOptions.onProgress`.
public enum RunProgress: Sendable {
    /// Step `index` (1-based) of `total` begins an attempt.
    case stepStarted(id: String, index: Int, total: Int, attempt: Int)
    /// The running step reported how far it got (every report; stores get them throttled).
    case stepProgress(id: String, StepProgress)
    /// A step attempt ended.
    case stepFinished(RunReport.StepResult, index: Int, total: Int)
    /// A hook (`hooks:`) ended, after all its attempts.
    case hookFinished(RunReport.StepResult, phase: ManifestHooks.Phase)
}
