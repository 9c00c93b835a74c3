/// A crash test of one upgrade path: the commit points of its uninterrupted run, one trial per
/// chosen crash point, and how its end compares with a fresh install's.
public struct InterruptionPath: Sendable {
    /// The version the path starts from.
    public let from: Version
    public let to: Version
    /// The commit points the uninterrupted run passed, in order.
    public let points: [CommitPoint]
    /// The trials, in the order of their crash points in the run.
    public let trials: [InterruptionTrial]
    /// How the uninterrupted run's end differs from a fresh install's; nil when it is the same or
    /// was not compared.
    public let freshInstallDifference: String?

    public init(from: Version, to: Version, points: [CommitPoint], trials: [InterruptionTrial], freshInstallDifference: String?) {
        self.from = from
        self.to = to
        self.points = points
        self.trials = trials
        self.freshInstallDifference = freshInstallDifference
    }

    /// Every finding of the path: the fresh install's, then each trial's in order.
    public var findings: [TrialFinding] {
        (freshInstallDifference.map { [.freshInstall(from: from, difference: $0)] } ?? []) + trials.flatMap(\.findings)
    }

    /// Whether every trial agrees and the path ends where a fresh install does (when compared).
    public var agrees: Bool { !findings.contains(where: \.isFailure) }
}
