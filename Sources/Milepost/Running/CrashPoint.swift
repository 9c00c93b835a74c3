/// Where a crash test stops a run: just before one of its commit points (what ran since the last
/// commit is done, the commit is lost) or just after it (the commit is durable, nothing after it ran).
public struct CrashPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// On which side of its commit the run stops.
    public enum Moment: String, Sendable, Codable, CaseIterable {
        case before, after
    }

    public let point: CommitPoint
    public let moment: Moment

    public init(_ moment: Moment, _ point: CommitPoint) {
        self.point = point
        self.moment = moment
    }

    /// `just before the cursor commit #3 of 2.7/backfill`, `just before the run-finished commit`.
    public var description: String { "just \(moment.rawValue) \(point)" }

    /// `just before its cursor commit #3`: the crash point in a sentence about its step (the
    /// run's own points as `description` has them).
    public var relative: String {
        point.step == nil ? description : "just \(moment.rawValue) its \(point.commit)"
    }

    /// `before cursor 3 2.7/backfill`: the point as one line of text (`init(line:)` reads it back).
    public var line: String { "\(moment.rawValue) \(point.line)" }

    /// The crash point `line` names; nil when it names none.
    public init?(line: some StringProtocol) {
        guard let space = line.firstIndex(of: " "), let moment = Moment(rawValue: String(line[..<space])),
              let point = CommitPoint(line: line[line.index(after: space)...])
        else { return nil }
        self.init(moment, point)
    }

    /// The crash points worth a trial among a reference run's commit points, in their order.
    /// Just before a commit when the step's own work ran since the last one (a cursor, a progress
    /// report, the attempt's end, the run's last write: that work is done and not recorded); just
    /// after a commit when the step's work goes on from it (its start, its process group, a cursor,
    /// a progress report: recorded, and nothing after it done), and after `run-started`. Where no
    /// step's work runs between two commits, the moment after the first is the moment before the
    /// second: it is tried once.
    public static func trials(in points: [CommitPoint]) -> [CrashPoint] {
        points.flatMap { point -> [CrashPoint] in
            let before: Bool = switch point.kind {
            case .cursor, .progress, .stepEnded, .runFinished: true
            case .runStarted, .stepStarted, .processGroup: false
            }
            let after: Bool = switch point.kind {
            case .runStarted, .stepStarted, .processGroup, .cursor, .progress: true
            case .stepEnded, .runFinished: false
            }
            return (before ? [CrashPoint(.before, point)] : []) + (after ? [CrashPoint(.after, point)] : [])
        }
    }
}
