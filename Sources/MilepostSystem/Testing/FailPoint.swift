import Glibc

/// Test hook for crash tests: when the environment variable `MILEPOST_FAILPOINT` names a point,
/// the process kills itself with `SIGKILL` on reaching it, as a power cut or `kill -9` would.
package enum FailPoint: String {
    /// `state.json`'s temp file is being written (its descriptor still open); nothing is committed.
    case stateAfterTempWrite = "state-after-temp-write"
    /// The temp file is written and closed; the commit's line is not yet in `state.log`.
    case stateBeforeLog = "state-before-log"
    /// Half of the commit's line is in `state.log`: a torn line, never committed.
    case stateLogTorn = "state-log-torn"
    /// The commit's line is in `state.log` (committed: fdatasynced, unless a `.process` commit);
    /// the temp file is not yet renamed over `state.json`, nor the records appended to `journal.jsonl`.
    case stateAfterLogSync = "state-after-log-sync"
    /// The temp file is renamed over `state.json`; the records are not yet in `journal.jsonl`.
    case stateAfterRename = "state-after-rename"

    /// The point named by `MILEPOST_FAILPOINT`, read once per process.
    private static let armed: FailPoint? = ProcessEnvironment.value("MILEPOST_FAILPOINT").flatMap(FailPoint.init(rawValue:))

    /// Kills the process with `SIGKILL` when this point is armed; otherwise does nothing.
    package func reach() {
        guard Self.armed == self else { return }
        Self.killProcess()
    }

    /// Kills the process with `SIGKILL` now, as a power cut or `kill -9` would: no handler runs,
    /// nothing is flushed (also a `milepost test` trial's kill at its commit point).
    package static func killProcess() {
        kill(getpid(), SIGKILL)
    }
}
