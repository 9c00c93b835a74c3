import ArgumentParser

/// Every exit status of `milepost`, in one table: its code and what it means. The root command's
/// help lists them from here; `CommandFailure` and the commands map their outcomes to them.
enum ExitStatus: Int32, CaseIterable {
    case ok = 0
    case stepFailed = 1
    case needsResolve = 2
    case downgradeRefused = 3
    case notReady = 4
    case stopRequired = 5
    /// `plan --deadline`: the pending work at p95 is over the deadline; `run --deadline`: a step no
    /// longer fit what was left of it, and the run stopped before it.
    case deadline = 6
    /// `run --plan`: the reviewed plan no longer holds; nothing ran.
    case planChanged = 7
    /// A `requires: approval` step has no approval: the run stopped before it.
    case awaitingApproval = 8
    /// A bad flag or value, an empty setting (ArgumentParser's `ValidationError` is 64 too).
    case usage = 64
    case invalidManifest = 65
    case manifestNotFound = 66
    case storeUnreachable = 69
    /// The system refused the threads a run needs (`ThreadHeadroom`), before anything was read.
    case threadsRefused = 71
    /// `init` or `new` could not write the manifest (a full disk, no permission).
    case cannotWrite = 73
    case storeIO = 74
    case lockTimeout = 75

    var meaning: String {
        switch self {
        case .ok: "ok or nothing to do"
        case .stepFailed: "a step failed (`test`: a trial found a difference)"
        case .needsResolve: "an interrupted step needs `resolve` (or an unfinished revert, `revert`)"
        case .downgradeRefused: "downgrade refused: --to is below the store's compatibility floor (`run`, `wait`, `status --check`)"
        case .notReady: "`status --check` found pending steps"
        case .stopRequired: "a required stop comes first (`upgrade_from`, `stops`): install that version first"
        case .deadline: "the deadline does not fit (`plan --deadline`: the pending work at p95; `run --deadline`: the next step)"
        case .planChanged: "`run --plan`: the plan changed (the manifest, the store, the target); nothing ran"
        case .awaitingApproval: "a step requires approval: `approve` it, then run again"
        case .usage: "usage"
        case .invalidManifest: "invalid manifest (or a warning under `validate --strict`, a `late: fail` step, or a step `revert` cannot undo)"
        case .manifestNotFound: "manifest not found"
        case .storeUnreachable: "store unreachable (or new, under `run --existing-store`)"
        case .threadsRefused: "the system refused the threads a run needs (a process, thread or address-space limit)"
        case .cannotWrite: "`init`/`new` could not write the manifest, `lock` its lock file"
        case .storeIO: "state or journal I/O error"
        case .lockTimeout: "lock not acquired in time (another run holds it: the message says what it runs), a contract run's background steps unfinished in time, or a step whose runner was killed still running (`wait`: version not reached in time)"
        }
    }

    /// The status a signal ends a run with: 128 + n (`SignalCancellation.exitStatus`).
    static let signalled = "128 + n interrupted by a signal (129 SIGHUP, 130 SIGINT, 131 SIGQUIT, 143 SIGTERM)"

    /// The help's list: `0 ok or nothing to do, 1 a step failed, …`.
    static var summary: String {
        (allCases.map { "\($0.rawValue) \($0.meaning)" } + [signalled]).joined(separator: ", ")
    }

    /// Ends the command with this status.
    var exit: ExitCode { ExitCode(rawValue) }
}
