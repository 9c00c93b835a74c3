/// The deadline of one run (`RunOptions.deadline`): when it ends, and how long the steps took
/// before (`StepDurations`), read once before the run takes the lock.
struct RunDeadline: Sendable {
    let deadline: Duration
    let end: ContinuousClock.Instant
    let durations: StepDurations

    /// Why `step` may not start now: its budgeted duration is more than what is left; nil when it
    /// fits, or nothing is known of it.
    func refusal(of step: ManifestStep) -> DeadlineRefusal? {
        DeadlineRefusal(step, estimate: durations.estimate(for: step), left: end - ContinuousClock.now, deadline: deadline)
    }
}
