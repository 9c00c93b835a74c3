import Milepost

/// `milepost status` for humans: what happened, and what to type next.
enum StatusText {
    static func render(_ report: StatusReport, colored: Bool) -> String {
        var lines: [String] = []
        guard let state = report.state else {
            lines.append("store:    \(report.store) (empty: nothing has run yet)")
            appendPlan(report, to: &lines, colored: colored)
            return lines.joined(separator: "\n")
        }
        lines.append("store:    \(report.store)")
        if let app = state.app { lines.append("app:      \(app)") }
        lines.append("version:  \(state.version) (updated \(state.updatedAt), \(counted(state.completed.count, "step")) completed)")
        if let last = report.lastRun {
            let result = last.outcome ?? "did not finish (killed?)"
            lines.append("last run: \(last.run) started \(last.started) on \(last.host ?? "?") pid \(last.pid.map(String.init) ?? "?"): \(result)")
        }
        if let holder = report.lockHolder {
            lines.append("lock:     held by \(holder)")
        }
        if let running = state.inProgress {
            lines.append(Terminal.paint("interrupted: \(running.id)", .red, colored: colored)
                + " (attempt \(running.attempt), pid \(running.pid) on \(running.host) since \(running.since))")
            lines.append("  next: if its work is complete, `milepost resolve \(running.id) --done`;"
                + " to run it again, `milepost resolve \(running.id) --retry`")
        }
        if let failed = state.failed {
            lines.append(Terminal.paint("failed: \(failed.id)", .red, colored: colored) + " at \(failed.at): \(failed.error)")
            lines.append("  next: fix the cause and run again (it resumes at this step), or `milepost resolve \(failed.id) --done`")
        }
        appendPlan(report, to: &lines, colored: colored)
        return lines.joined(separator: "\n")
    }

    private static func appendPlan(_ report: StatusReport, to lines: inout [String], colored: Bool) {
        guard let plan = report.plan else {
            lines.append("(no manifest: pass --manifest to see pending steps and drift)")
            return
        }
        lines.append("pending to \(plan.to): " + (report.pending.isEmpty ? "none" : report.pending.map(\.id).joined(separator: ", ")))
        for drift in report.drift {
            lines.append(Terminal.paint("drift:", .yellow, colored: colored)
                + " \(drift.id) changed in the manifest or its revision after it ran at \(drift.ranAt); it will not run again")
        }
        for entry in report.neverRun {
            lines.append(Terminal.paint("never runs:", .yellow, colored: colored)
                + " \(entry.step.id) was added at or below \(plan.from), which this store had already reached")
        }
    }
}
