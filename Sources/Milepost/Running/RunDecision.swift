/// What a run does with its plan (`Runner.decide(_:sides:manifest:)`): end before any step, find
/// its stores up to date, or run steps. A dry run reports the same decision a run acts on.
enum RunDecision {
    case ended(Ending)
    case upToDate
    case run([ManifestStep])

    /// How a run that runs no step ends: in one table, the outcome it reports, the `run-finished`
    /// record it journals (after its `run-started`), and what its report says of it.
    enum Ending {
        /// A target below the stored version: allowed, compatible (an older release starts) or refused.
        case downgrade(RunReport.Outcome, DowngradeRefusal?, floor: CompatibilityFloor?)
        case stopRequired(RequiredStop)
        /// Late steps under `late: fail`.
        case lateRefused([String])
        /// An interrupted step that stops every run until it is resolved.
        case blocked(InProgressStep)
        case revertUnfinished(UnfinishedRevert)
        /// The reviewed plan no longer holds.
        case planChanged([PlanChange])

        var outcome: RunReport.Outcome {
            switch self {
            case .downgrade(let outcome, _, _): outcome
            case .stopRequired: .stopRequired
            case .lateRefused: .lateRefused
            case .blocked: .blocked
            case .revertUnfinished: .revertUnfinished
            case .planChanged: .planChanged
            }
        }

        /// True when the answer holds whoever holds the lock, so a run that read the state without
        /// the lock may give it without waiting for the lock (`Runner.answeredUnlocked`): a
        /// downgrade, a required stop, late steps and an unfinished revert are decided by the
        /// stored version, the floor, the revert and the completed steps, which the holder can only
        /// move on. Not a blocked run (whether a step is interrupted or running takes its holder)
        /// nor a changed reviewed plan (it was reviewed against the store as the lock keeps it).
        var standsWithoutTheLock: Bool {
            switch self {
            case .downgrade, .stopRequired, .lateRefused, .revertUnfinished: true
            case .blocked, .planChanged: false
            }
        }

        /// The `run-finished` record of a run from `from` to `target` that ends here.
        func runFinished(_ journal: RunJournal, from: Version, to target: Version) -> JournalRecord {
            switch self {
            case .downgrade(let outcome, let refusal, _):
                journal.record(.runFinished, from: from, to: target, error: refusal?.description, outcome: .init(outcome))
            case .stopRequired(let stop):
                journal.record(
                    .runFinished, from: from, to: target, error: stop.message(from: from, to: target), outcome: .stopRequired)
            case .lateRefused(let steps):
                journal.record(.runFinished, from: from, to: target, error: RunFailure.lateRefusal(steps), outcome: .lateRefused)
            case .blocked(let step):
                journal.blocked(by: step, from: from, to: target)
            case .revertUnfinished(let reverting):
                journal.record(
                    .runFinished, from: from, to: target, error: RevertError.unfinished(to: reverting.to).description,
                    outcome: .revertUnfinished)
            case .planChanged(let changes):
                journal.record(.runFinished, from: from, to: target, error: RunFailure.planChanged(changes), outcome: .planChanged)
            }
        }

        /// The interrupted step a blocked run names in its report (`RunReport.interrupted`).
        var interrupted: InProgressStep? {
            if case .blocked(let step) = self { step } else { nil }
        }

        /// What `report` says of this ending besides its outcome and `interrupted`.
        func describe(in report: inout RunReport) {
            switch self {
            case .downgrade(_, let refusal, let floor):
                report.floor = floor
                report.refusal = refusal
            case .revertUnfinished(let reverting): report.reverting = reverting
            case .planChanged(let changes): report.planChanges = changes
            case .stopRequired, .lateRefused, .blocked: break
            }
        }
    }
}
