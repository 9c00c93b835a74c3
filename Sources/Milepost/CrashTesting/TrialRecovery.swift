/// What the runs after an interruption did with the step it stopped in, read from the journal
/// records they appended: whether the first of them stopped at the step until `resolve --retry`
/// (as an operator does where the run advises it), and whether the step then resumed at its
/// cursor or ran again from its start.
public struct TrialRecovery: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The step was resolved with `--retry` after a run stopped at it (exit 2).
    public var resolved: Bool
    /// The step ran again.
    public var reran: Bool
    /// The cursor it resumed at; nil when it ran from its start (or did not run again).
    public var cursor: String?

    public init(resolved: Bool, reran: Bool, cursor: String?) {
        self.resolved = resolved
        self.reran = reran
        self.cursor = cursor
    }

    /// The recovery of `step` (nil: the run's own records) in `records`, the journal records the
    /// runs after the interruption appended, oldest first.
    public init(of step: String?, in records: [JournalRecord]) {
        let restart = step.flatMap { step in
            records.first { ($0.event == .stepStarted || $0.event == .hookStarted) && $0.step == step }
        }
        self.init(
            resolved: step.map { step in records.contains { $0.event == .resolved && $0.step == step } } ?? false,
            reran: restart != nil, cursor: restart?.cursor)
    }

    /// `resolve --retry, then resumed at cursor 30`, `ran again from the start`, `nothing to redo`.
    public var description: String {
        let redo = !reran ? "nothing to redo" : cursor.map { "resumed at cursor \($0)" } ?? "ran again from the start"
        return resolved ? "blocked (exit 2); resolve --retry, then \(redo)" : redo
    }
}
