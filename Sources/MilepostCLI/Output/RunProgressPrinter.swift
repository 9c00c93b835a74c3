import Milepost
import MilepostSystem
import Synchronization

/// Human progress of `milepost run` on stderr: step i/n as it starts and ends, elapsed time while it
/// runs, and a summary. On a terminal the running step's line ticks every second; elsewhere (CI logs,
/// journald) a heartbeat line every `heartbeatInterval` shows the run is alive.
final class RunProgressPrinter: Sendable {
    /// How often a long step prints `still running` when stderr is not a terminal.
    static let heartbeatInterval: Duration = .seconds(10)

    private struct Current {
        var label: String
        var started: ContinuousClock.Instant
        var lastPrinted: ContinuousClock.Instant
        /// The step's last reported progress.
        var progress: StepProgress?
    }

    let colored: Bool
    /// Stderr is a terminal: rewrite the running step's line instead of printing heartbeats.
    let interactive: Bool
    private let current = Mutex<Current?>(nil)

    init(colored: Bool, interactive: Bool) {
        self.colored = colored
        self.interactive = interactive
    }

    /// How an attempted step or hook ended, painted.
    private func word(_ status: RunReport.StepResult.Status) -> String {
        switch status {
        case .succeeded: Terminal.paint("ok", .green, colored: colored)
        case .failed: Terminal.paint("FAILED", .red, colored: colored)
        case .interrupted: Terminal.paint("INTERRUPTED", .red, colored: colored)
        }
    }

    func handle(_ progress: RunProgress) {
        switch progress {
        case .stepStarted(let id, let index, let total, let attempt):
            let label = "[\(index)/\(total)] \(id)" + (attempt > 1 ? " (attempt \(attempt))" : "")
            let now = ContinuousClock.now
            current.withLock { $0 = Current(label: label, started: now, lastPrinted: now) }
            if interactive { Terminal.errPartial("\(label) …") } else { Terminal.err("\(label) …") }
        case .stepProgress(_, let progress):
            let now = ContinuousClock.now
            // A terminal's line follows the reports, redrawn at most ten times a second.
            let line = current.withLock { step -> String? in
                step?.progress = progress
                guard let running = step, interactive, now - running.lastPrinted >= .milliseconds(100) else { return nil }
                step?.lastPrinted = now
                return Self.line(running, now: now, heartbeat: false)
            }
            if let line { Terminal.errPartial(Terminal.clearLine + line) }
        case .stepFinished(let result, let index, let total):
            current.withLock { $0 = nil }
            let status = word(result.status)
            Terminal.err((interactive ? Terminal.clearLine : "")
                + "[\(index)/\(total)] \(result.id) \(status) in \(Elapsed.text(milliseconds: result.durationMs))"
                + (result.error.map { ": \($0.escapingControlCharacters())" } ?? ""))
        case .hookFinished(let result, _):
            Terminal.err("hook \(result.id) \(word(result.status)) in \(Elapsed.text(milliseconds: result.durationMs))"
                + (result.error.map { ": \($0.escapingControlCharacters())" } ?? ""))
        }
    }

    /// Until cancelled: every second, tick the running step's elapsed time (terminal) or print a
    /// heartbeat when `heartbeatInterval` has passed since its last line (elsewhere).
    func tick() async {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            let now = ContinuousClock.now
            let line = current.withLock { step -> String? in
                guard let running = step, interactive || now - running.lastPrinted >= Self.heartbeatInterval else { return nil }
                step?.lastPrinted = now
                return Self.line(running, now: now, heartbeat: !interactive)
            }
            guard let line else { continue }
            if interactive { Terminal.errPartial(Terminal.clearLine + line) } else { Terminal.err(line) }
        }
    }

    /// The running step's line: elapsed time, then its progress (with a bar on a terminal).
    private static func line(_ running: Current, now: ContinuousClock.Instant, heartbeat: Bool) -> String {
        let elapsed = elapsed(running.label, now - running.started, heartbeat: heartbeat)
        guard let progress = running.progress else { return elapsed }
        return elapsed + (heartbeat ? ", " : " " + ProgressText.bar(progress)) + ProgressText.summary(progress)
    }

    /// `[2/5] 2.7/compactDailys still running, 20.0 s` (a heartbeat line), or `[2/5] 2.7/compactDailys … 3.1 s`.
    static func elapsed(_ label: String, _ elapsed: Duration, heartbeat: Bool) -> String {
        "\(label)\(heartbeat ? " still running," : " …") \(Elapsed.text(milliseconds: DurationText.milliseconds(elapsed)))"
    }

    /// The run's last words on stderr: the late steps it met (located in `file`, the manifest), then the outcome.
    func summarize(_ report: RunReport, hint: CommandHint, file: String) {
        let app = report.app.map { "\($0.escapingControlCharacters()) " } ?? ""
        if let plan = report.plan {
            let renderer = DiagnosticRenderer(source: nil, colored: colored)
            // A `late: run` step shows as a step of the run; a dry run still says why it would run.
            for entry in plan.late where entry.late != .run || report.outcome == .dryRun {
                if let finding = StoreAudit.late(entry, from: plan.from, file: file) { Terminal.err(renderer.render(finding)) }
            }
        }
        switch report.outcome {
        case .upToDate:
            Terminal.err("milepost: \(app)up to date at \(report.to)"
                + (report.doneByAnotherRunner ? " (another runner did the work while this one waited)" : ""))
        case .succeeded:
            Terminal.err("milepost: \(app)\(report.from) → \(report.to): \(counted(report.steps.count, "step")) ran (run \(report.run ?? "?"))")
        case .failed where report.steps.isEmpty:
            // Only a before_run hook fails a run before any step.
            let hook = report.hooks.last { $0.status != .succeeded }?.id ?? "?"
            Terminal.err("milepost: \(app)hook \(hook) failed, so no step ran; the stored version stays \(report.from)."
                + " Fix the cause and run again.")
        case .failed:
            let failed = report.steps.last
            Terminal.err("milepost: \(app)step \(failed?.id ?? "?") failed; the stored version stays \(report.from)."
                + " Fix the cause and run again: it resumes at this step.")
        case .blocked:
            Terminal.err(RevertText.blocked(report.interrupted, hint: hint))
        case .revertUnfinished:
            Terminal.err(RevertText.unfinished(to: report.reverting?.to, hint: hint))
        case .downgradeRefused:
            Terminal.err("milepost: refusing to go from \(report.from) down to \(report.to): "
                + (report.refusal.map { "\($0); \(DowngradeAdvice.text($0))" } ?? "\(report.to) is below \(report.from)"))
        case .downgradeCompatible:
            Terminal.err("milepost: warning: \(app)\(report.to) is below the stored version \(report.from), and at or above "
                + "the store's compatibility floor \(report.floor?.version.text ?? "?"): this release starts; nothing ran")
        case .stopRequired:
            let message = report.plan?.requiredStop?.message(from: report.from, to: report.to) ?? "a required stop comes first"
            Terminal.err("milepost: refusing to run, nothing ran: \(message)")
        case .lateRefused:
            let count = report.plan?.lateRefused.count ?? 0
            Terminal.err("milepost: refusing to run, nothing ran: \(counted(count, "late step")) under 'late: fail' (above)")
        case .deadlineRefused:
            Terminal.err("milepost: \(app)stopped, \(report.deadlineRefusal?.message ?? "a step no longer fits the deadline"); "
                + "\(counted(report.steps.count, "step")) ran and the stored version stays \(report.from). Run again with more "
                + "time, or give the step 'phase: background' if it can run after the release starts")
        case .awaitingApproval:
            let gate = report.plan?.approvalGate?.step.id ?? "?"
            Terminal.err("milepost: \(app)\(gate) requires approval: the run stops before it (\(counted(report.steps.count, "step")) ran, "
                + "the stored version stays \(report.from)); once reviewed, `\(hint.milepost("approve", gate, "--by", "NAME"))` "
                + "and run again")
        case .planChanged:
            Terminal.err("milepost: refusing to run the plan, nothing ran: \(report.planChanges.map(\.message).joined(separator: "; ")); "
                + "review a new one: `\(hint.milepost("plan", "--to", report.to.text, "--out", "FILE"))`")
        case .downgradeAllowed:
            Terminal.err("milepost: \(report.to) is below the stored \(report.from); allowed, nothing changed")
        case .interrupted where report.steps.last?.status == .failed:
            // The signal came while the step waited to be retried: no attempt was running.
            Terminal.err("milepost: interrupted; step \(report.steps.last?.id ?? "?") had failed and stays failed,"
                + " the lock is released. Fix the cause and run again: it resumes at this step.")
        case .interrupted:
            Terminal.err("milepost: interrupted; the current step is recorded as interrupted and the lock released."
                + " `\(hint.milepost("status"))` shows what to do next.")
        case .dryRun:
            let pending = report.plan?.pending ?? []
            Terminal.err("milepost: dry run \(report.from) → \(report.to): \(counted(pending.count, "step")) would run")
            for step in pending { Terminal.out("  \(step.id)") }
            if let running = report.plan?.running { Terminal.err("milepost: " + PlanText.runningNote(running.step.id)) }
            if let gate = report.plan?.approvalGate {
                Terminal.err("milepost: the run would stop before \(gate.step.id), which requires approval (exit "
                    + "\(ExitStatus.awaitingApproval.rawValue)): `\(hint.milepost("approve", gate.step.id, "--by", "NAME"))`")
            }
        }
    }
}
