import Milepost

/// What `milepost status` says about the library's verdict: a one-line headline, and what to type next.
struct StatusAdvice {
    let verdict: StatusVerdict
    /// The verdict as a sentence, after what a lock take-over did when the last run took the lock over.
    let headline: String
    /// Commands or actions, most urgent first.
    let next: [String]
    /// A target version was given (--to or MILEPOST_TO).
    let hasTarget: Bool

    init(_ report: StatusReport, hint: CommandHint, target: Version?) {
        let to = target.map { $0.text } ?? "VERSION"
        let labels = LabelHint.expression(for: report.plan).map { ["--labels", $0] } ?? []
        /// The run that runs the steps of `phase` (and the pre-start steps): for an unfinished step,
        /// its own phase, so that the command resumes it whatever `status` was asked about.
        let runOf = { (phase: StepPhase?) in
            hint.milepost("run", arguments: ["--to", to] + labels + (phase.map { $0 == .preStart ? [] : ["--phase", $0.rawValue] } ?? []))
        }
        let run = runOf(report.plan?.scope.phase)
        var next: [String] = []
        let steps = report.plan?.entries.map(\.step) ?? []
        let idempotent = { (id: String) in steps.first { $0.id == id }?.idempotent == true }
        let resumes = { (mark: InProgressStep) in steps.first { $0.id == mark.id }?.runsAgain(afterInterruption: mark) == true }
        verdict = report.verdict(hasTarget: target != nil)
        var sentence: String
        switch verdict {
        case .running:
            let orphaned = report.orphanedPids
            if let step = report.running, let group = step.processGroup, !orphaned.isEmpty {
                sentence = "\(step.id) is still running although its run \(step.run) is gone (killed?): process group \(group.id) "
                    + "on \(group.host), pid\(orphaned.count == 1 ? "" : "s") \(orphaned.map(String.init).joined(separator: ", ")); "
                    + "runs, reverts and resolve wait for it (--\(OptionNames.lockTimeout)) and refuse (exit \(ExitStatus.lockTimeout.rawValue)) while it runs"
                next.append("wait for it to end, or stop it: `kill -TERM -- -\(group.id)`")
            } else if let step = report.running {
                sentence = "a run is in progress: \(step.id) (attempt \(step.attempt)) in pid \(step.pid) on \(step.host)"
                next.append("wait for it; `\(hint.milepost("history", "--run", step.run))` shows what it did so far")
            } else {
                let holder = report.lockHolder
                sentence = "a run holds the lock: \(holder.map(String.init(describing:)) ?? "?")"
                next.append("wait for it; `\(hint.milepost("history", "--run", holder?.run ?? "?"))` shows what it did so far")
            }
        case .interrupted where report.interrupted?.direction == .revert:
            let id = report.interrupted?.id ?? "?"
            sentence = "the revert of \(id) was interrupted: runs and reverts stop at it (exit 2) until it is resolved"
            next.append("check what its revert did, then either:")
            next.append("  `\(hint.milepost("resolve", id, "--done"))`   if its undoing is complete (or you completed it by hand)")
            next.append("  `\(hint.milepost("resolve", id, "--retry"))`  to run its revert again on the next revert")
        case .interrupted:
            let id = report.interrupted?.id ?? "?"
            if let mark = report.interrupted, let cursor = mark.cursor, resumes(mark), !idempotent(id) {
                sentence = "\(id) was interrupted; it is resumable and the next run resumes it at its cursor \(cursor)"
                next.append("`\(runOf(mark.phase))`")
                next.append("or, to start it over: `\(hint.milepost("resolve", id, "--retry", "--from-start"))`")
            } else if idempotent(id) {
                sentence = "\(id) was interrupted; it is idempotent and runs again on the next run"
                next.append("`\(runOf(report.interrupted?.phase))`")
            } else {
                sentence = "\(id) was interrupted and is not idempotent: runs stop at it (exit 2) until it is resolved"
                next.append("check what \(id) did, then either:")
                next.append("  `\(hint.milepost("resolve", id, "--done"))`   if its work is complete (or you completed it by hand)")
                next.append("  `\(hint.milepost("resolve", id, "--retry"))`  to run it again on the next run")
            }
        case .failed where report.state?.failures.first?.direction == .revert:
            let failed = report.state?.failures.first
            let id = failed?.id ?? "?"
            sentence = "the revert of \(id) failed: \(failed?.error ?? "?")"
            let revert = hint.milepost("revert", "--to", report.state?.reverting?.to.text ?? "VERSION")
            next.append("fix the cause, then `\(revert)`: it resumes at \(id)")
            next.append("or, if you undid its work by hand: `\(hint.milepost("resolve", id, "--done"))`")
        case .failed:
            let failed = report.state?.failures.first
            let id = failed?.id ?? "?"
            sentence = "\(id): \(failed?.error ?? "?")"
            next.append("fix the cause, then `\(runOf(failed?.phase))`: it resumes at \(id)")
            next.append("or, if you did its work by hand: `\(hint.milepost("resolve", id, "--done"))`")
        case .revertUnfinished:
            let to = report.state?.reverting?.to.text ?? "?"
            sentence = "a revert to \(to) is unfinished: runs refuse (exit 2) until it is finished"
            next.append("`\(hint.milepost("revert", "--to", to))`")
        case .pending:
            let plan = report.plan
            sentence = "\(counted(report.pending.count, "step")) to run from \(plan?.from.text ?? "?") to \(plan?.to.text ?? "?")"
            next.append("`\(run)`")
        case .empty:
            sentence = "nothing has run on this store yet"
        case .ok:
            sentence = report.plan.map { target != nil ? "up to date for \($0.to)" : "at \($0.from), nothing unfinished" }
                ?? "at \(report.state?.version.text ?? "?"), nothing unfinished"
        }
        if let takeOver = report.takeOver {
            sentence = "run \(takeOver.previousRun) lost its lease at \(takeOver.at), run \(takeOver.run) took over; " + sentence
            let history = "`\(hint.milepost("history", "--run", takeOver.previousRun))`"
            next.append(takeOver.step.map {
                "run \(takeOver.previousRun) was cut off while running \($0), whose work may be partly done: \(history) shows what "
                    + "it recorded (the fence refused all it tried to write after the take-over)"
            } ?? "\(history) shows what run \(takeOver.previousRun) recorded before it lost its lease (the fence refused all it "
                + "tried to write after the take-over)")
        }
        if report.state == nil, verdict != .running {
            next.append("if this host already has the effects of earlier steps: `\(hint.milepost("baseline", "VERSION"))`")
        }
        if report.plan == nil {
            next.append("pass --manifest (and --to) to see pending steps, drift and steps that never run")
        } else if target == nil {
            next.append("pass --to VERSION to see what a run to VERSION would do")
        }
        if !report.drift.isEmpty {
            next.append("drifted steps never run again; to apply a change, add a new step at a threshold above \(report.state?.version.text ?? "the stored version")")
        }
        if !report.neverRun.isEmpty, let plan = report.plan {
            next.append("steps that never run: move them under a threshold above \(plan.from) to run them, or remove them")
            if report.late.contains(where: { $0.late == .fail }) {
                next.append("late steps under 'late: fail' stop every run (exit \(ExitStatus.invalidManifest.rawValue)): remove them, move them, or give them 'late: run'")
            }
        }
        if !report.orphans.isEmpty {
            next.append("orphans: if a step was renamed, give it `replaces: OLD-ID` so its history carries over; a deleted step needs nothing")
        }
        if let plan = report.plan, let stop = plan.requiredStop {
            next.append("install the release for \(stop.version) first and run it to \(stop.version): runs from \(plan.from) to \(plan.to) are refused (exit \(ExitStatus.stopRequired.rawValue))")
        }
        headline = sentence
        self.next = next
        hasTarget = target != nil
    }
}
