/// One trial of a crash test: the run stopped at a crash point, the runs an operator would start
/// after it, and how the path's end compares with the uninterrupted run's.
public struct InterruptionTrial: Sendable {
    /// Where the run was stopped.
    public let crash: CrashPoint
    /// Whether the run reached `crash` and stopped there; false when it ended without passing it.
    public let reached: Bool
    /// What the runs after the interruption did with its step; nil when the point was not reached.
    public let recovery: TrialRecovery?
    /// How the last of those runs ended, when it did not finish the upgrade; nil when it did.
    public let unfinished: String?
    /// How the path's end differs from the uninterrupted run's (`verify differs at line 4`); nil
    /// when it is the same, or when the runs did not finish.
    public let difference: String?
    /// What a replica of the previous release did at the crash point, when one was started.
    public let previousRelease: PreviousReleaseCheck?

    public init(
        crash: CrashPoint, reached: Bool, recovery: TrialRecovery?, unfinished: String?, difference: String?,
        previousRelease: PreviousReleaseCheck?
    ) {
        self.crash = crash
        self.reached = reached
        self.recovery = recovery
        self.unfinished = unfinished
        self.difference = difference
        self.previousRelease = previousRelease
    }

    /// Whether the path survived the interruption: the point was reached, the runs after it
    /// finished the upgrade, it ended as the uninterrupted run did, and the previous release did
    /// what it must.
    public var agrees: Bool { !findings.contains(where: \.isFailure) }

    /// What the trial found, failures first, then the note that the step needed `resolve`.
    public var findings: [TrialFinding] {
        guard reached else { return [.unreached(crash)] }
        var findings: [TrialFinding] =
            if let unfinished { [.unrecovered(crash, outcome: unfinished)] }
            else if let difference { [.unsafe(crash, difference: difference)] }
            else { [] }
        if let previousRelease, !previousRelease.agrees { findings.append(.previousRelease(crash, previousRelease)) }
        if recovery?.resolved == true { findings.append(.needsResolve(crash)) }
        return findings
    }
}
