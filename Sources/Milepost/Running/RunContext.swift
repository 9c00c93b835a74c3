import MilepostSystem

/// What the step, revert and hook loops of one run share while it holds the lock: the locked
/// store, the run's journal, its commit points, the stop grace, the versions the run goes from and
/// to, the manifest's directory (where a step's body runs), the run's deadline and its approvals.
struct RunContext: Sendable {
    let locked: any LockedStore
    let journal: RunJournal
    /// Every write of the run goes through it (`CommitPoints.pass`).
    let points: CommitPoints
    let grace: StopGrace
    let from: Version
    let to: Version
    let directory: String
    /// A step that no longer fits it is not started (`RunOptions.deadline`); nil: none.
    var deadline: RunDeadline? = nil
    /// The approvals the run's plan found, for the traces of the steps that required one.
    var approvals = StepApprovals()

    /// Appends the `run-finished` record of a run (or revert) that `stopped` at a step or hook
    /// (its id and error), or before one (nil).
    func finish(_ outcome: JournalRecord.Outcome, stoppedAt stopped: RunReport.StepResult? = nil) async throws {
        try await finish(outcome, step: stopped?.id, error: stopped?.error)
    }

    /// Appends the `run-finished` record of a run that ended at `step` (or nowhere) for `error`: the
    /// run's `run-finished` commit point.
    func finish(_ outcome: JournalRecord.Outcome, step: String?, error: String?) async throws {
        try await points.pass(.runFinished) {
            try await locked.append([journal.record(.runFinished, from: from, to: to, step: step, error: error, outcome: outcome)])
        }
    }
}
