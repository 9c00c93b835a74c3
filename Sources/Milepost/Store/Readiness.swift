/// Whether a store is ready for a version, from its state alone: the one rule `wait` settles on,
/// `status --check` starts from (`StatusReport.isReady` adds what only the manifest tells) and
/// `status`'s verdict heads with; its floor is the rule `run` refuses a downgrade by
/// (`CompatibilityFloor.refusal`).
public enum Readiness: Sendable, Equatable {
    /// The stored version is at or above the target (at most down to the store's compatibility
    /// floor), no revert is unfinished, and no step at or below the target is failed or in
    /// progress. A step above the target that failed or was interrupted does not count: the
    /// target does not need it.
    case ready
    /// Nothing is stored yet, or the stored version is below the target, and nothing stops a run
    /// from getting there.
    case behind
    /// A step at or below the target is in progress: running, or interrupted when no run holds the lock.
    case inProgress(InProgressStep)
    /// A step at or below the target failed.
    case failed(FailedStep)
    /// A revert is unfinished: steps above its target may be undone although the stored version
    /// still names them, so no version is ready until the revert finishes.
    case revertUnfinished(UnfinishedRevert)
    /// The target is below the stored version and below the store's compatibility floor (a
    /// contract step made it incompatible), or the store keeps no floor: no run makes it ready,
    /// `run` refuses it (exit 3). The way out is forward.
    case belowFloor(DowngradeRefusal)

    /// The readiness of `state` for `target`. A step of another phase than the pre-start phase and
    /// `phase` (a background step running beside the service, a contract step that waits for the
    /// rollout) does not count: the release starts without it.
    public init(_ state: StoredState?, for target: Version, phase: StepPhase = .preStart) {
        guard let state else { self = .behind; return }
        let counts = { (id: String, stepPhase: StepPhase?) in
            (stepPhase == nil || stepPhase == .preStart || stepPhase == phase)
                && Version.threshold(ofStep: id).map { $0 <= target } ?? true
        }
        // A downgrade is decided first, in `run`'s order (`Runner.decide`): an unfinished revert,
        // then the floor, before any mark.
        let refusal = CompatibilityFloor.refusal(of: target, stored: state.version, floor: state.floor)
        if target < state.version, let reverting = state.reverting {
            self = .revertUnfinished(reverting)
        } else if let refusal {
            self = .belowFloor(refusal)
        } else if let mark = state.interruptedMarks.first(where: { counts($0.id, $0.phase) }) {
            self = .inProgress(mark)
        } else if let failed = state.failures.first(where: { counts($0.id, $0.phase) }) {
            self = .failed(failed)
        } else if let reverting = state.reverting {
            self = .revertUnfinished(reverting)
        } else {
            self = state.version >= target ? .ready : .behind
        }
    }
}
