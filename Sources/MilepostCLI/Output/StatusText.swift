import FoundationEssentials
import Milepost

/// `milepost status` for humans: the verdict first, then the facts, then what to type next.
enum StatusText {
    static func render(
        _ report: StatusReport, app: String?, advice: StatusAdvice, colored: Bool, now: Timestamp = .now()
    ) -> String {
        let style: Terminal.Style = switch advice.verdict {
        case .ok: .green
        case .pending, .running, .new: .yellow
        case .failed, .interrupted, .revertUnfinished, .downgradeRefused: .red
        }
        var lines = [(app.map { "\($0.escapingControlCharacters()): " } ?? "")
            + Terminal.paint(advice.verdict.rawValue.uppercased(), style, colored: colored)
            + " " + advice.headline.escapingControlCharacters()]
        func field(_ label: String, _ value: String, _ labelStyle: Terminal.Style? = nil) {
            let padded = label.padding(12)
            lines.append("  " + (labelStyle.map { Terminal.paint(padded, $0, colored: colored) } ?? padded)
                + value.escapingControlCharacters())
        }
        /// A step's stderr tail, one field line per line of it.
        func stderr(_ tail: String?) {
            for (index, line) in (tail?.split(separator: "\n", omittingEmptySubsequences: false) ?? []).enumerated() {
                field(index == 0 ? "stderr" : "", "| " + line)
            }
        }
        func when(_ timestamp: Timestamp) -> String { "\(timestamp) (\(Elapsed.age(of: timestamp, now: now)))" }

        field("store", report.store)
        if let state = report.state {
            field("version", "\(state.version), updated \(when(state.updatedAt)); \(counted(state.completed.count, "step")) completed")
        } else {
            field("version", "none stored" + (report.plan.map { "; runs start from the baseline \($0.from)" } ?? ""))
        }
        if let last = report.lastRun {
            let range = [last.from, last.to].compactMap { $0 }.joined(separator: " → ")
            let result = last.outcome?.rawValue ?? (report.lockHolder?.run == last.run ? "still running" : "did not finish (process killed?)")
            let took = last.finished.map { ", took \(Elapsed.text(milliseconds: Int($0.milliseconds(since: last.started))))" } ?? ""
            let by = last.pid.map { "pid \($0) on \(last.host ?? "?")" } ?? last.host ?? "?"
            field("last run", "\(last.run) \(range.isEmpty ? "" : "\(range) ")\(result)")
            field("", "started \(when(last.started))\(took), by \(by)")
        } else {
            field("last run", "none recorded")
        }
        field("lock", report.lockHolder.map { "held by \($0)" } ?? "free")
        if let takeOver = report.takeOver {
            field("taken over", "by run \(takeOver.run) at \(when(takeOver.at)) from run \(takeOver.previousRun), whose lease had lapsed"
                + (takeOver.step.map { " while it ran \($0)" } ?? ""))
        }
        if let step = report.running ?? report.interrupted {
            field(report.running == nil ? "interrupted" : "running",
                  "\(step.id), attempt \(step.attempt), since \(when(step.since)), pid \(step.pid) on \(step.host), run \(step.run)")
            let orphaned = report.orphanedPids
            if let group = step.processGroup, !orphaned.isEmpty {
                field("processes", "group \(group.id): pid\(orphaned.count == 1 ? "" : "s") \(orphaned.map(String.init).joined(separator: ", ")) "
                    + "still running; their runner, pid \(step.pid), is gone")
            }
            if let progress = step.progress {
                // An interrupted step's last report: no rate or time left for a process that is gone.
                let live = report.running != nil
                field(live ? "progress" : "last report", ProgressText.summary(progress, live: live))
                field(live ? "heartbeat" : "reported", when(progress.at))
            }
            if let eta = report.runningETA, eta.basis != .progress { field("eta", ETAText.text(eta, since: step.since, now: now)) }
            if let cursor = step.cursor { field("cursor", cursor) }
            if report.running == nil { stderr(step.stderr) }
        }
        if let failed = report.failed {
            field("failed", "\(failed.id) at \(when(failed.at)), run \(failed.run)")
            field("", failed.error)
            if let cursor = failed.cursor { field("cursor", cursor) }
            stderr(failed.stderr)
        }
        if let plan = report.plan {
            let pending = report.pending.map(\.id)
            let scope = advice.hasTarget ? "for \(plan.to)" : "up to \(plan.to) (no --to given)"
            field("pending", pending.isEmpty ? "none \(scope)" : "\(counted(pending.count, "step")) \(scope):")
            for id in pending { field("", id) }
            for entry in plan.waiting {
                field("waiting", "\(entry.step.id): \(entry.reason)")
            }
            if let floor = report.state?.floor {
                field("floor", "releases at \(floor.version) or later start on this store"
                    + (floor.step.map { " (raised by the contract step \($0))" } ?? ""))
            }
            for drift in report.drift {
                field("drift", "\(drift.id) changed in the manifest or its revision after it ran at \(drift.ranAt)", .yellow)
            }
            for entry in report.neverRun {
                let policy = entry.late.map { " (late: \($0.rawValue))" } ?? ""
                field("never runs", "\(entry.step.id): added at or below \(plan.from), which this store had already reached\(policy)",
                      entry.late == .fail ? .red : .yellow)
            }
            for entry in report.reverted {
                field("reverted", "\(entry.step.id): \(entry.reason)", .yellow)
            }
            for entry in report.late where entry.late == .run {
                field("late", "\(entry.step.id): added at or below \(plan.from) after this store reached it; the next run runs it first (late: run)", .yellow)
            }
            for entry in plan.changed {
                field("changed", "\(entry.step.id): entry changed since it last ran; the next run runs it again (repeat: on-change)", .yellow)
            }
            for orphan in report.orphans {
                field("orphan", "\(orphan.id): completed at \(orphan.at), no longer in the manifest (deleted, or renamed without 'replaces:')", .yellow)
            }
            for newer in report.newer {
                field("newer", "\(newer.id): completed at \(newer.at), a step of a newer release than this manifest's")
            }
            if let stop = plan.requiredStop {
                field("stop", stop.message(from: plan.from, to: plan.to), .red)
            }
        }
        if let plan = report.plan { lines += StatusSteps.lines(plan, state: report.state, colored: colored, now: now) }
        if !advice.next.isEmpty {
            lines.append("next:")
            lines += advice.next.map { "  " + $0.text.escapingControlCharacters() }
        }
        return lines.joined(separator: "\n")
    }
}
