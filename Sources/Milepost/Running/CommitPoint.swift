/// One write a run makes durable, named as crash tests name it: its kind, the step (or hook) it is
/// about, and which of that step's writes of that kind it is in the run (`cursor`, `2.7/backfill`,
/// 3: the step's third cursor commit). A run passes its commit points in the same order each time
/// its steps do the same work, so a reference run's list names the points of every trial.
public struct CommitPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What a commit makes durable.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The journal's `run-started` record of a run with steps to run.
        case runStarted = "run-started"
        /// A step's (or hook's) attempt begins: its in-progress mark with `step-started`, or a
        /// hook's `hook-started`. A step whose work runs in the store's transaction has none.
        case stepStarted = "step-started"
        /// The process group an `exec` step's program runs in, in its in-progress mark.
        case processGroup = "process-group"
        /// A cursor the step committed (with its work, for a step in the store's transaction).
        case cursor
        /// A progress report written to the state with `step-progress`.
        case progress
        /// An attempt's end: the step completed, failed or interrupted (a hook's end record).
        case stepEnded = "step-ended"
        /// The run's last write: the target version with `run-finished`, or `run-finished` alone.
        case runFinished = "run-finished"
    }

    public let kind: Kind
    /// The step (`THRESHOLD/ID`) or hook the write is about; nil for the run's own records.
    public let step: String?
    /// Which write of this kind of `step` in the run, from 1.
    public let number: Int

    public init(kind: Kind, step: String?, number: Int) {
        self.kind = kind
        self.step = step
        self.number = number
    }

    /// `the cursor commit #3 of 2.7/backfill`, `the run-finished commit`.
    public var description: String {
        "the \(commit)" + (step.map { " of \($0)" } ?? "")
    }

    /// `cursor commit #3`, `step-started commit`: the commit without its step (numbered when the
    /// step makes more than one of its kind).
    public var commit: String {
        "\(kind.rawValue) commit" + (number > 1 || kind.isRepeated ? " #\(number)" : "")
    }

    /// `cursor 3 2.7/backfill`: the point as one line of text (`init(line:)` reads it back), how a
    /// crash test hands it to a child run and how the child records the points it passed.
    public var line: String {
        "\(kind.rawValue) \(number)" + (step.map { " " + $0 } ?? "")
    }

    /// The point `line` names; nil when it names none.
    public init?(line: some StringProtocol) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, let kind = Kind(rawValue: String(parts[0])), let number = Int(parts[1]), number > 0 else { return nil }
        self.init(kind: kind, step: parts.count == 3 ? String(parts[2]) : nil, number: number)
    }
}

extension CommitPoint.Kind {
    /// Whether a step writes this kind more than once in an attempt: its points are numbered in words too.
    var isRepeated: Bool { self == .cursor || self == .progress }
}
