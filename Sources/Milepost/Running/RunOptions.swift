/// How a run behaves beyond its target version.
public struct RunOptions: Sendable {
    /// Plan and report, write nothing, take no lock.
    public var dryRun = false
    /// A target below the stored version exits successfully and keeps the stored version.
    public var allowDowngrade = false
    /// How long to wait for another runner's lock.
    public var lockTimeout: Duration = .seconds(60)
    /// How long a cancelled step (timeout, SIGINT/SIGTERM) may take to stop before it is abandoned;
    /// `exec` children are SIGKILLed then. Inside Kubernetes' default 30 s grace period.
    public var terminationGrace: Duration = .seconds(25)
    /// Pause before a retry; doubled for each further retry.
    public var retryDelay: Duration = .seconds(1)
    /// The least time between two writes of a step's progress to the store (state and a
    /// `step-progress` journal record); the first report of an attempt is written at once.
    public var progressInterval: Duration = .seconds(5)
    /// When the stored version already is the target and nothing is interrupted: read the manifest
    /// anyway and run its repeatable steps whose entry changed (`repeat: on-change`) instead of
    /// answering up to date from the state alone. Off by default, which keeps the no-op run to one
    /// read of the state; the command line turns it on when the manifest file may have repeatable
    /// steps (`Manifest.mayHaveRepeatableSteps(path:maxBytes:)`).
    public var checksRepeatableSteps = false
    /// The `--labels` expression: labelled steps it does not match are out of scope (`PlanScope`);
    /// nil: every step is. With one, a run at the stored version reads the manifest instead of
    /// answering up to date from the state alone, so it runs steps an earlier run left out.
    public var labels: LabelExpression?
    /// Called as steps start, report progress and finish, for progress output.
    public var onProgress: (@Sendable (RunProgress) -> Void)?

    public init() {}
}
