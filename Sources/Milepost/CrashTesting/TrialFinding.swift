/// What a crash test found on one upgrade path, in words: a failure (the path does not survive an
/// interruption there, or differs from a fresh install, or the previous release does not do what
/// it must) or a note (a step that needs an operator's `resolve` after an interruption).
public enum TrialFinding: Sendable, Equatable, CustomStringConvertible {
    /// After an interruption at `crash`, the path ended otherwise than the uninterrupted run:
    /// `difference` says how (`verify differs at line 4`).
    case unsafe(CrashPoint, difference: String)
    /// After an interruption at `crash`, the runs an operator would start did not finish the
    /// upgrade: `outcome` says how the last one ended.
    case unrecovered(CrashPoint, outcome: String)
    /// The trial's run ended without reaching `crash`: its commits are not those of the
    /// reference run, so the step does not do the same work each time.
    case unreached(CrashPoint)
    /// The previous release did not do what it must after an interruption at `crash`.
    case previousRelease(CrashPoint, PreviousReleaseCheck)
    /// The uninterrupted upgrade from `from` does not end where a fresh install does.
    case freshInstall(from: Version, difference: String)
    /// A note: after an interruption at `crash`, the next run stopped at its step until
    /// `resolve --retry`; the trial went on as an operator would, and this counts against the step.
    case needsResolve(CrashPoint)

    /// Whether the finding fails the test; a note does not.
    public var isFailure: Bool {
        if case .needsResolve = self { return false }
        return true
    }

    /// The step (or hook) the finding is about; nil for the run's own points and the fresh install.
    public var step: String? {
        switch self {
        case .unsafe(let crash, _), .unrecovered(let crash, _), .unreached(let crash), .needsResolve(let crash):
            crash.point.step
        case .previousRelease(let crash, let check):
            check.contractStep ?? crash.point.step
        case .freshInstall:
            nil
        }
    }

    /// The crash point it is about; nil for the fresh install.
    public var crash: CrashPoint? {
        switch self {
        case .unsafe(let crash, _), .unrecovered(let crash, _), .unreached(let crash), .needsResolve(let crash),
             .previousRelease(let crash, _):
            crash
        case .freshInstall:
            nil
        }
    }

    /// `2.7/backfill is not safe to resume after an interruption just before its cursor commit #3: verify differs at line 4`.
    public var description: String {
        switch self {
        case .unsafe(let crash, let difference):
            "\(Self.subject(crash)) is not safe to resume after an interruption \(crash.relative): \(difference)"
        case .unrecovered(let crash, let outcome):
            "\(Self.subject(crash)) does not recover from an interruption \(crash.relative): \(outcome)"
        case .unreached(let crash):
            "the trial's run never reached \(crash.point): the run's commits differ from the reference run's, "
                + "so its steps do not do the same work each time"
        case .previousRelease(let crash, let check):
            switch check.expected {
            case .starts:
                "release \(check.version) does not start after an interruption \(crash) "
                    + "(exit \(check.exitCode)), though no contract step had begun"
            case .refused:
                "\(check.contractStep ?? "a contract step") breaks release \(check.version): it still starts (exit "
                    + "\(check.exitCode)) after an interruption \(crash), once the contract step began"
            }
        case .freshInstall(let from, let difference):
            "the upgrade from \(from) does not end where a fresh install does: \(difference)"
        case .needsResolve(let crash):
            "\(Self.subject(crash)) needs milepost resolve \(crash.point.step ?? "") --retry after an interruption "
                + "\(crash.relative): declare it idempotent or resumable if running it again is safe"
        }
    }

    /// The step a point is about, or the run.
    private static func subject(_ crash: CrashPoint) -> String { crash.point.step ?? "the run" }
}
