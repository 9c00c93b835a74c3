/// Who holds (or last held) a store's lock. For messages only: liveness comes from the lock itself.
public struct LockHolder: Codable, Sendable, Equatable, CustomStringConvertible {
    public var pid: Int32
    public var host: String
    public var since: Timestamp
    public var run: String

    public init(pid: Int32, host: String, since: Timestamp, run: String) {
        self.pid = pid
        self.host = host
        self.since = since
        self.run = run
    }

    public var description: String { "pid \(pid) on \(host) since \(since) (run \(run))" }
}

extension InProgressStep {
    /// True when the step's own run holds the store's lock (`lockHolder`), or when its run is gone
    /// but the step's process group is still alive on this machine (`StepProcessGroup.livePids`):
    /// it is running right now. Otherwise its run is gone (killed, power loss) and the step is
    /// interrupted.
    public func isRunning(lockHolder: LockHolder?) -> Bool {
        lockHolder?.run == run || !orphanedPids(lockHolder: lockHolder).isEmpty
    }

    /// The pids of the step's process group that outlived its run (whose run no longer holds the
    /// lock): empty when none did, or when they run on another machine.
    public func orphanedPids(lockHolder: LockHolder?) -> [Int32] {
        guard lockHolder?.run != run, let processGroup else { return [] }
        return processGroup.livePids()
    }
}
