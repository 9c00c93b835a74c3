/// A run that took the store's lock over from a run whose lease had lapsed (the `lock-taken-over`
/// journal record): the previous run was paused or cut off while it held the lock, and every
/// checkpoint it tried afterwards was refused by the fence (it exits 74).
public struct LockTakeOver: Sendable, Equatable {
    /// The run that took the lock over.
    public let run: String
    /// The run whose lease had lapsed.
    public let previousRun: String
    /// When the lock was taken over (the previous lease had lapsed by then).
    public let at: Timestamp
    /// The step the previous run left in progress, if any.
    public let step: String?

    /// The take-over by `run`, from the journal records around its start; nil when it took a
    /// free lock.
    static func of(run: String, in journal: [JournalRecord]) -> LockTakeOver? {
        guard let record = journal.last(where: { $0.run == run && $0.event == .lockTakenOver }),
              let previous = record.previousRun
        else { return nil }
        return LockTakeOver(run: run, previousRun: previous, at: record.time, step: record.step)
    }
}
