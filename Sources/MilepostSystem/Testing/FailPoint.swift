import Glibc

/// Test hook for crash tests: when the environment variable `MILEPOST_FAILPOINT` names a point,
/// the process kills itself with `SIGKILL` on reaching it, as a power cut or `kill -9` would.
package enum FailPoint: String {
    /// `state.json`'s temp file is written but not yet fsynced.
    case stateAfterTempWrite = "state-after-temp-write"
    /// The temp file is fsynced but not yet renamed over `state.json`.
    case stateAfterFsync = "state-after-fsync"
    /// The temp file is renamed over `state.json`, the directory not yet fsynced.
    case stateAfterRename = "state-after-rename"

    /// The point named by `MILEPOST_FAILPOINT`, read once per process.
    private static let armed: FailPoint? = ProcessEnvironment.value("MILEPOST_FAILPOINT").flatMap(FailPoint.init(rawValue:))

    /// Kills the process with `SIGKILL` when this point is armed; otherwise does nothing.
    package func reach() {
        guard Self.armed == self else { return }
        kill(getpid(), SIGKILL)
    }
}
