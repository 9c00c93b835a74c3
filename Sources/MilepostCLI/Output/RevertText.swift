import Milepost

/// What `milepost revert` says on stderr (and, for a dry run, the reverts in order on stdout).
enum RevertText {
    static func summarize(_ report: RevertReport, hint: CommandHint) {
        let app = report.app.map { "\($0.escapingControlCharacters()) " } ?? ""
        switch report.outcome {
        case .dryRun:
            Terminal.err("milepost: dry run revert \(report.from) → \(report.to): \(counted(report.plan.steps.count, "revert")) would run")
            for step in report.plan.steps { Terminal.out("  \(step.id)\(step.revertsNothing ? "  (revert: none: runs nothing)" : "")") }
            if !report.plan.irreversible.isEmpty {
                Terminal.err("milepost: error: \(RevertError.irreversible(report.plan.irreversible))")
            }
        case .upToDate:
            Terminal.err("milepost: \(app)already at \(report.to): nothing to revert")
        case .succeeded:
            Terminal.err("milepost: \(app)\(report.from) → \(report.to): \(counted(report.steps.count, "step")) reverted (run \(report.run ?? "?"))")
        case .failed:
            Terminal.err("milepost: \(app)the revert of step \(report.steps.last?.id ?? "?") failed; the stored version stays \(report.from)"
                + " and the revert is unfinished. Fix the cause and revert again: it resumes at this step.")
        case .blocked:
            Terminal.err(blocked(report.interrupted, hint: hint))
        case .interrupted where report.steps.last?.status == .failed:
            Terminal.err("milepost: interrupted; the revert of step \(report.steps.last?.id ?? "?") had failed and stays failed,"
                + " the lock is released. Fix the cause and revert again: it resumes at this step.")
        case .interrupted:
            let id = report.steps.last?.id ?? "?"
            Terminal.err("milepost: interrupted; the revert of step \(id) is recorded as interrupted and the lock released."
                + " If its undoing is complete: `\(hint.milepost("resolve", id, "--done"))`;"
                + " to run it again: `\(hint.milepost("resolve", id, "--retry"))`.")
        }
    }

    /// Why a run or revert stopped at an interrupted step, and the `resolve` commands that clear it.
    static func blocked(_ interrupted: InProgressStep?, hint: CommandHint) -> String {
        let id = interrupted?.id ?? "?"
        let since = interrupted.map { " (pid \($0.pid) on \($0.host.escapingControlCharacters()) since \($0.since))" } ?? ""
        guard interrupted?.direction == .revert else {
            return "milepost: step \(id) was interrupted\(since) and is not idempotent. If its work is complete:"
                + " `\(hint.milepost("resolve", id, "--done"))`; to run it again: `\(hint.milepost("resolve", id, "--retry"))`."
        }
        return "milepost: the revert of step \(id) was interrupted\(since). If its undoing is complete:"
            + " `\(hint.milepost("resolve", id, "--done"))`; to run its revert again: `\(hint.milepost("resolve", id, "--retry"))`."
    }

    /// Why a run refused while a revert is unfinished.
    static func unfinished(to target: Version?, hint: CommandHint) -> String {
        let to = target?.text ?? "VERSION"
        return "milepost: refusing to run, nothing ran: a revert to \(to) is unfinished;"
            + " finish it first: `\(hint.milepost("revert", "--to", to))`"
    }
}
