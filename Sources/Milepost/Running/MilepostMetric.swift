/// The metrics a run records through swift-metrics (docs/observability.md): names in Prometheus
/// style, which OpenTelemetry takes as they are, and the help text an exposition shows.
public enum MilepostMetric: String, CaseIterable, Sendable {
    /// Timer; dimensions `app`, `outcome`.
    case runDuration = "milepost_run_duration_seconds"
    /// Timer, one record per attempt; dimensions `app`, `step`, `outcome`.
    case stepDuration = "milepost_step_duration_seconds"
    /// Counter, one per attempt; dimensions `app`, `step`, `outcome`.
    case stepAttempts = "milepost_step_attempts_total"
    /// Timer; dimensions `store`, `outcome`.
    case lockWait = "milepost_lock_wait_seconds"
    /// Gauge; dimension `app`.
    case pendingSteps = "milepost_pending_steps"
    /// Gauge, always 1; dimensions `app`, `version`.
    case storedVersion = "milepost_stored_version"

    /// One line for `# HELP`.
    public var help: String {
        switch self {
        case .runDuration: "Duration of milepost runs, by outcome."
        case .stepDuration: "Duration of step attempts, by step and outcome."
        case .stepAttempts: "Step attempts, by step and outcome."
        case .lockWait: "Time spent waiting for the store's lock."
        case .pendingSteps: "Steps still pending after the run."
        case .storedVersion: "The version stored after the run, as the version label (value 1)."
        }
    }
}
