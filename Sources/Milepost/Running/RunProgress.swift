/// Progress of a run, reported through `RunOptions.onProgress`.
public enum RunProgress: Sendable {
    /// Step `index` (1-based) of `total` begins an attempt.
    case stepStarted(id: String, index: Int, total: Int, attempt: Int)
    /// A step attempt ended.
    case stepFinished(RunReport.StepResult, index: Int, total: Int)
}
