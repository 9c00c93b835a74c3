/// The marks of unfinished steps, looked up by step: the state's `inProgress` and `failed` slots
/// hold the latest, `setAside` the ones another step's mark would have replaced. Every change to a
/// mark goes through here, so that no step's mark or cursor is lost to another step's.
extension StoredState {
    /// Every interrupted mark: the in-progress step's, then those set aside.
    public var interruptedMarks: [InProgressStep] {
        [inProgress].compactMap { $0 } + setAside.compactMap(\.interrupted)
    }

    /// Every recorded failure: the last, then those set aside.
    public var failures: [FailedStep] {
        [failed].compactMap { $0 } + setAside.compactMap(\.failure)
    }

    /// The in-progress (running or interrupted) mark of step `id`, in its slot or set aside.
    /// Builds no array: the planner asks for every step of the manifest.
    public func interruptedMark(of id: String) -> InProgressStep? {
        if let inProgress, inProgress.id == id { return inProgress }
        return setAside.lazy.compactMap(\.interrupted).first { $0.id == id }
    }

    /// The recorded failure of step `id`, in its slot or set aside (as `interruptedMark(of:)`).
    public func failure(of id: String) -> FailedStep? {
        if let failed, failed.id == id { return failed }
        return setAside.lazy.compactMap(\.failure).first { $0.id == id }
    }

    /// Marks `mark`'s step in progress. Another step's mark in the slot is set aside, and the
    /// step's own set-aside interrupted mark is dropped: `mark` carries on from it.
    mutating func markInProgress(_ mark: InProgressStep) {
        if let other = inProgress, other.id != mark.id { setAside.append(.interrupted(other)) }
        setAside.removeAll { $0.interrupted?.id == mark.id }
        inProgress = mark
    }

    /// Records `failure` as its step's last failure. Another step's failure in the slot is set
    /// aside, and the step's own earlier failure is dropped.
    mutating func recordFailure(_ failure: FailedStep) {
        if let other = failed, other.id != failure.id { setAside.append(.failed(other)) }
        setAside.removeAll { $0.failure?.id == failure.id }
        failed = failure
    }

    /// Removes every mark of step `id`: its in-progress mark, its failure, those set aside.
    mutating func clearMarks(of id: String) {
        if inProgress?.id == id { inProgress = nil }
        if failed?.id == id { failed = nil }
        if setAside.contains(where: { $0.id == id }) { setAside.removeAll { $0.id == id } }
    }

    /// Removes the in-progress mark of step `id` (it ended), keeping its failure and other steps' marks.
    mutating func clearInProgress(of id: String) {
        if inProgress?.id == id { inProgress = nil }
        if setAside.contains(where: { $0.interrupted?.id == id }) { setAside.removeAll { $0.interrupted?.id == id } }
    }

    /// Removes every mark of every step (`baseline`).
    mutating func clearAllMarks() {
        inProgress = nil
        failed = nil
        setAside = []
    }
}

/// A step's completion: the one rule both a successful run of the step and `resolve --done` record
/// it by, so that a step finished by hand leaves the state exactly as its run would have.
extension StoredState {
    /// Records `record`'s step as completed: its marks cleared and, with `replacing`, its earlier
    /// record dropped (a repeatable step keeps one, its last). A step of the contract `phase`
    /// raises the compatibility floor to its threshold: older releases stop working there
    /// (`CompatibilityFloor`).
    mutating func recordCompleted(_ record: CompletedStep, phase: StepPhase?, replacing: Bool) {
        clearMarks(of: record.id)
        if replacing { completed.removeAll { $0.id == record.id } }
        completed.append(record)
        if phase == .contract, let threshold = Version.threshold(ofStep: record.id), floor.map({ $0.version < threshold }) ?? true {
            floor = CompatibilityFloor(version: threshold, step: record.id)
        }
    }
}
