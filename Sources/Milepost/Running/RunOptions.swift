/// How a run behaves beyond its target version.
public struct RunOptions: Sendable {
    /// Plan and report, write nothing, take no lock.
    public var dryRun = false
    /// A target below the stored version exits successfully and keeps the stored version.
    public var allowDowngrade = false
    /// A run on a store that stores nothing yet starts its history there (the default); false: it
    /// refuses (`NewStoreRefused`) before it loads the manifest or creates anything — no directory,
    /// no schema, no table — so a misspelled store never makes a pre-start hook run every step again.
    public var createsStore = true
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
    /// Where the manifest `Runner.run` loads is read from (its file, its env file): when the stored
    /// version is the target, nothing is interrupted and these files have the digest the state was
    /// last planned with (`StoredState.plannedWith`), the run is up to date without loading the
    /// manifest — the no-op run reads the state and these files and parses nothing. Nil (the
    /// default): the run loads the manifest and compares its digest (`Manifest.digest`), which is
    /// as exact and costs a parse. Give the files the `loadManifest` closure reads, or the run may
    /// answer for another manifest.
    public var manifestInputs: ManifestInputs?
    /// The `--labels` expression: labelled steps it does not match are out of scope (`PlanScope`);
    /// nil: every step is. With one, a run always loads the manifest and plans, and records no
    /// digest (`StoredState.plannedWith`): the steps it leaves out are not up to date.
    public var labels: LabelExpression?
    /// The run's phase (`run --phase`): `.preStart` (the default) runs what a release needs before
    /// it starts; `.contract` also runs the contract steps up to the target (once no older release
    /// runs); `.background` also runs the background steps. Only a pre-start run takes the fast path.
    public var phase: StepPhase = .preStart
    /// What a fresh install runs: every step (`.runAll`, the default), or only the `when:
    /// fresh-install` steps before the target is recorded as reached (`.record`: an app's first launch).
    public var freshInstall: FreshInstallPolicy = .runAll
    /// What a run does at an interrupted step that would need `resolve`: stop (`.block`, the
    /// default, exit 2 on the command line) or run it again (`.retry`, for a device with no operator).
    public var interruptedSteps: InterruptedStepPolicy = .block
    /// How long the run may take, from its start: a step whose budgeted duration (the p95 of its
    /// recorded runs, else its `expected:`; `StepEstimate.budgeted`) is more than what is left is
    /// not started, and the run ends `deadlineRefused` before it. Nil: no deadline. Steps nothing is
    /// known of always start.
    public var deadline: Duration?
    /// Other stores whose journals tell how long steps take (a staging store, a CI run's), read
    /// with this store's for `deadline` (`Runner.stepDurations()`).
    public var history: [any MilepostStore] = []
    /// A reviewed plan (`plan --out`): the run runs exactly its steps, or refuses before any with
    /// what changed since it was made (`planChanged`); with a step awaiting approval it runs none.
    public var reviewedPlan: PlanFile?
    /// Called as steps start, report progress and finish, for progress output.
    public var onProgress: (@Sendable (RunProgress) -> Void)?
    /// Reached at each commit point of the run, by crash tests only (`milepost test`, MilepostTesting).
    package var commitTrap: CommitTrap?

    public init() {}
}
