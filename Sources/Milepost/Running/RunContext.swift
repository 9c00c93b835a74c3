import MilepostSystem

/// What the step, revert and hook loops of one run share while it holds the lock: the locked
/// store, the run's journal, its commit points, the stop grace, the versions the run goes from and
/// to, and the manifest's directory (where a step's body runs).
struct RunContext: Sendable {
    let locked: any LockedStore
    let journal: RunJournal
    /// Every write of the run goes through it (`CommitPoints.pass`).
    let points: CommitPoints
    let grace: StopGrace
    let from: Version
    let to: Version
    let directory: String

    /// Appends the `run-finished` record of a run (or revert) that `stopped` at a step or hook
    /// (its id and error), or before one (nil).
    func finish(_ outcome: JournalRecord.Outcome, stoppedAt stopped: RunReport.StepResult? = nil) async throws {
        try await points.pass(.runFinished) {
            try await locked.append([journal.record(
                .runFinished, from: from, to: to, step: stopped?.id, error: stopped?.error, outcome: outcome)])
        }
    }
}
