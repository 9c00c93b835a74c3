import Milepost

/// Human progress of `milepost run` on stderr: step i/n as it starts and ends, and a summary.
struct RunProgressPrinter: Sendable {
    var colored: Bool

    func handle(_ progress: RunProgress) {
        switch progress {
        case .stepStarted(let id, let index, let total, let attempt):
            Terminal.err("[\(index)/\(total)] \(id)" + (attempt > 1 ? " (attempt \(attempt))" : "") + " …")
        case .stepFinished(let result, let index, let total):
            let status = switch result.status {
            case .succeeded: Terminal.paint("ok", .green, colored: colored)
            case .failed: Terminal.paint("FAILED", .red, colored: colored)
            case .interrupted: Terminal.paint("INTERRUPTED", .red, colored: colored)
            }
            Terminal.err("[\(index)/\(total)] \(result.id) \(status) in \(result.durationMs) ms"
                + (result.error.map { ": \($0)" } ?? ""))
        }
    }

    func summarize(_ report: RunReport) {
        let app = report.app.map { "\($0) " } ?? ""
        switch report.outcome {
        case .upToDate:
            Terminal.err("milepost: \(app)up to date at \(report.to)"
                + (report.doneByAnotherRunner ? " (another runner did the work while this one waited)" : ""))
        case .succeeded:
            Terminal.err("milepost: \(app)\(report.from) → \(report.to): \(counted(report.steps.count, "step")) ran (run \(report.run ?? "?"))")
        case .failed:
            let failed = report.steps.last
            Terminal.err("milepost: \(app)step \(failed?.id ?? "?") failed; the stored version stays \(report.from)."
                + " Fix the cause and run again: it resumes at this step.")
        case .blocked:
            let id = report.interrupted?.id ?? "?"
            Terminal.err("milepost: step \(id) was interrupted"
                + (report.interrupted.map { " (pid \($0.pid) on \($0.host) since \($0.since))" } ?? "")
                + " and is not idempotent. If its work is complete: `milepost resolve \(id) --done`;"
                + " to run it again: `milepost resolve \(id) --retry`.")
        case .downgradeRefused:
            Terminal.err("milepost: refusing to go from \(report.from) down to \(report.to); pass --allow-downgrade to accept it")
        case .downgradeAllowed:
            Terminal.err("milepost: \(report.to) is below the stored \(report.from); allowed, nothing changed")
        case .interrupted:
            Terminal.err("milepost: interrupted; the current step is recorded as interrupted and the lock released")
        case .dryRun:
            let pending = report.plan?.pending ?? []
            Terminal.err("milepost: dry run \(report.from) → \(report.to): \(counted(pending.count, "step")) would run")
            for step in pending { Terminal.out("  \(step.id)") }
        }
    }
}
