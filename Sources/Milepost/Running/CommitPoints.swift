import Synchronization

/// What a crash test does at each commit point of a run (`RunOptions.commitTrap`): record it, or
/// stop the run there. The command line's child runs record the points to a file or kill
/// themselves with SIGKILL (`milepost test`, through `MILEPOST_CRASH_TRIAL`); MilepostTesting
/// abandons the run in the process. Reached just before and just after each commit, the run
/// waiting for it; a throw stops the write (and so the run) there.
package struct CommitTrap: Sendable {
    package let reach: @Sendable (CrashPoint) async throws -> Void

    package init(_ reach: @escaping @Sendable (CrashPoint) async throws -> Void) {
        self.reach = reach
    }
}

/// The commit points of one run, counted as it passes them: every write a run makes to its
/// stores goes through `pass`, the one place a crash test sees them all, whatever the store.
/// Without a trap (every run but a crash test's) nothing is counted.
final class CommitPoints: Sendable {
    private struct Key: Hashable {
        let kind: CommitPoint.Kind
        let step: String?
    }

    private let trap: CommitTrap?
    private let counts = Mutex<[Key: Int]>([:])

    init(trap: CommitTrap?) {
        self.trap = trap
    }

    /// Makes `write` (one commit or journal append of the run, of `kind`, about `step`) the next
    /// commit point, with the trap reached just before and just after it. `write` runs in the
    /// caller's isolation (a `StepCheckpoint`'s, which owns the state it commits).
    func pass(
        _ kind: CommitPoint.Kind, step: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ write: () async throws -> Void
    ) async throws {
        guard let trap else { return try await write() }
        let number = counts.withLock { counts in
            let number = counts[Key(kind: kind, step: step), default: 0] + 1
            counts[Key(kind: kind, step: step)] = number
            return number
        }
        let point = CommitPoint(kind: kind, step: step, number: number)
        try await trap.reach(CrashPoint(.before, point))
        try await write()
        try await trap.reach(CrashPoint(.after, point))
    }
}
