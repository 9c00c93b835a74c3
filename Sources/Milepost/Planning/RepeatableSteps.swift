/// How a plan treats a manifest's repeatable steps (`repeat: on-change`, `RepeatPolicy`): after the
/// one-time steps, due when the target reaches their threshold and the store has no record of them
/// with their current fingerprint.
struct RepeatableSteps {
    /// The manifest's steps in run order: the one-time steps, then the repeatable ones, each in manifest order.
    let runOrder: [ManifestStep]
    /// The fingerprint each step id was last recorded with (the last record of an id wins); empty
    /// when the manifest has no repeatable step, so a plan without any costs nothing more.
    private let recorded: [String: String]

    init(_ manifest: Manifest, state: StoredState?) {
        guard manifest.steps.contains(where: { $0.repeats != nil }) else {
            runOrder = manifest.steps
            recorded = [:]
            return
        }
        runOrder = manifest.steps.filter { $0.repeats == nil } + manifest.steps.filter { $0.repeats != nil }
        recorded = Dictionary((state?.completed ?? []).map { ($0.id, $0.fingerprint) }, uniquingKeysWith: { _, last in last })
    }

    /// The status of the repeatable `step` in a plan to `target`. A record without a fingerprint
    /// (marked done by `resolve --done`) does not match any entry: the step runs again.
    func status(
        of step: ManifestStep, to target: Version, state: StoredState?, lockHolder: LockHolder?
    ) -> (Plan.Status, Plan.Reason) {
        if step.threshold > target { return (.aboveTarget, .aboveTarget(target)) }
        if let mark = state?.interruptedMark(of: step.id) { return Planner.inProgress(mark, lockHolder: lockHolder) }
        if let failed = state?.failure(of: step.id) { return (.pending, .failed(error: failed.error)) }
        guard let fingerprint = recorded[step.id] ?? step.replaces.flatMap({ recorded[$0] }) else {
            return (.pending, .repeatableFirstRun)
        }
        return fingerprint == step.fingerprint ? (.completed, .completed) : (.pending, .entryChanged)
    }
}

extension Plan.Entry {
    /// A repeatable step that runs again because its entry or revision changed since it last ran.
    public var entryChanged: Bool {
        if case .entryChanged = why { true } else { false }
    }
}

extension Plan {
    /// The repeatable steps a run would run again because their entry or revision changed.
    public var changed: [Entry] { entries.filter(\.entryChanged) }
}
