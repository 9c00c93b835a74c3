import MilepostSystem

/// A step whose runner is gone (killed) but whose process group is still alive on this machine:
/// the next command that would run, resolve or revert steps waits for it, bounded by the lock
/// timeout, and then refuses with this error (exit 75). It never starts a second copy.
public struct StepStillRunningError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step, `THRESHOLD/ID`.
    public let step: String
    /// The run that started it, whose runner is gone.
    public let run: String
    /// Its process group, and the pids of that group still alive when the wait ended.
    public let processGroup: Int32
    public let pids: [Int32]
    /// How long this command waited for them.
    public let waited: Duration

    public var description: String {
        "step \(step) is still running: its run \(run) is gone, but its process group \(processGroup) on this host "
            + "is alive (pid\(pids.count == 1 ? "" : "s") \(pids.map(String.init).joined(separator: ", "))) after a wait of "
            + DurationText.format(waited)
    }
}

extension RunStores {
    /// The state under the lock, once no step left running by a runner that is gone runs on this
    /// machine any more: an in-progress mark whose process group is alive is waited for, polling,
    /// up to the lock timeout. The lock is held meanwhile, so no other runner starts it either.
    /// - throws: `StepStillRunningError` when the group is still alive at the end of the wait.
    func readStateWaitingForOrphanedStep(_ locked: any LockedStore) async throws -> StoredState? {
        let state = try await locked.readState()
        guard let mark = state?.inProgress, let group = mark.processGroup else { return state }
        let clock = ContinuousClock()
        let start = clock.now
        var pids = group.livePids()
        var warned = false
        while !pids.isEmpty {
            let waited = clock.now - start
            guard waited < lockTimeout else {
                throw StepStillRunningError(step: mark.id, run: mark.run, processGroup: group.id, pids: pids, waited: waited)
            }
            if !warned {
                logger.warning(
                    "waiting for a step whose runner is gone: its processes are still running",
                    metadata: ["step": "\(mark.id)", "run": "\(mark.run)", "pids": "\(pids.map(String.init).joined(separator: ","))"])
                warned = true
            }
            try await Task.sleep(for: min(.milliseconds(100), lockTimeout - waited))
            pids = group.livePids()
        }
        return state
    }
}
