/// A replica of the previous release started where a trial of the new one was interrupted
/// (`milepost test --previous-manifest`): it must start (exit 0) until a contract step of the new
/// release has begun, and be refused from then on (exit 3 below the compatibility floor, or 2 at a
/// step it must not run past): a rolling deployment runs both releases side by side, and a
/// rollback starts the old one.
public struct PreviousReleaseCheck: Sendable, Equatable, Codable {
    /// What the previous release must do at a point.
    public enum Expectation: String, Sendable, Codable {
        /// Start: no contract step has begun.
        case starts
        /// Not start: a contract step has begun (`contractStep`).
        case refused
    }

    /// The previous release's version, the target its replica runs to.
    public var version: Version
    public var expected: Expectation
    /// The contract step that began before the point, when one did.
    public var contractStep: String?
    /// The replica's exit status.
    public var exitCode: Int32

    public init(version: Version, expected: Expectation, contractStep: String?, exitCode: Int32) {
        self.version = version
        self.expected = expected
        self.contractStep = contractStep
        self.exitCode = exitCode
    }

    /// Whether the replica did what it must: exit 0 where it must start; exit 3 (the floor) or 2
    /// (an interrupted step it does not know) where it must not.
    public var agrees: Bool {
        switch expected {
        case .starts: exitCode == 0
        case .refused: exitCode == 3 || exitCode == 2
        }
    }

    /// What the previous release must do at `crash`: refused once a commit of a step in
    /// `contractSteps` is durable there (its start, or for a step whose work shares the store's
    /// transaction, its first commit with that work), else start. `points` are the reference
    /// run's, in order.
    public static func expectation(
        at crash: CrashPoint, in points: [CommitPoint], contractSteps: Set<String>
    ) -> (Expectation, contractStep: String?) {
        guard let index = points.firstIndex(of: crash.point) else { return (.starts, nil) }
        let durable = points[..<(crash.moment == .after ? index + 1 : index)]
        guard let began = durable.first(where: { $0.step.map(contractSteps.contains) == true }) else { return (.starts, nil) }
        return (.refused, began.step)
    }
}
