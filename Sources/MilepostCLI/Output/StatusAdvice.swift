import Milepost

/// What `milepost status` says about the library's verdict: a one-line headline, and what to type next.
struct StatusAdvice {
    let verdict: StatusVerdict
    /// The verdict as a sentence, after what a lock take-over did when the last run took the lock over.
    let headline: String
    /// Commands or actions, most urgent first.
    let next: [NextStep]
    /// A target version was given (--to or MILEPOST_TO).
    let hasTarget: Bool

    init(_ report: StatusReport, hint: CommandHint, target: Version?) {
        let to = target.map { $0.text } ?? "VERSION"
        let labels = LabelHint.expression(for: report.plan).map { ["--labels", $0] } ?? []
        /// The run that runs the steps of `phase` (and the pre-start steps): for an unfinished step,
        /// its own phase, so that the command resumes it whatever `status` was asked about.
        let runOf = { (phase: StepPhase?) in
            hint.arguments("run", ["--to", to] + labels + (phase.map { $0 == .preStart ? [] : ["--phase", $0.rawValue] } ?? []))
        }
        let run = runOf(report.plan?.scope.phase)
        var next: [NextStep] = []
        let steps = report.plan?.entries.map(\.step) ?? []
        let idempotent = { (id: String) in steps.first { $0.id == id }?.idempotent == true }
        let resumes = { (mark: InProgressStep) in steps.first { $0.id == mark.id }?.runsAgain(afterInterruption: mark) == true }
        verdict = report.verdict
        var sentence: String
        switch verdict {
        case .downgradeRefused:
            guard case .belowFloor(let refusal) = report.readiness else { preconditionFailure("a downgrade-refused verdict without its refusal") }
            sentence = "\(refusal.target) may not start on this store: \(refusal)"
            next.append(.note(DowngradeAdvice.text(refusal)))
        case .running:
            let orphaned = report.orphanedPids
            if let step = report.running, let group = step.processGroup, !orphaned.isEmpty {
                sentence = "\(step.id) is still running although its run \(step.run) is gone (killed?): process group \(group.id) "
                    + "on \(group.host), pid\(orphaned.count == 1 ? "" : "s") \(orphaned.map(String.init).joined(separator: ", ")); "
                    + "runs, reverts and resolve wait for it (--\(OptionNames.lockTimeout)) and refuse (exit \(ExitStatus.lockTimeout.rawValue)) while it runs"
                next.append(.command(["kill", "-TERM", "--", "-\(group.id)"], when: "to stop it; or wait for it to end"))
            } else if let step = report.running {
                sentence = "a run is in progress: \(step.id) (attempt \(step.attempt)) in pid \(step.pid) on \(step.host)"
                next.append(.command(hint.arguments("history", "--run", step.run), when: "shows what it did so far; wait for it"))
            } else {
                let holder = report.lockHolder
                sentence = "a run holds the lock: \(holder.map(String.init(describing:)) ?? "?")"
                next.append(.command(hint.arguments("history", "--run", holder?.run ?? "?"), when: "shows what it did so far; wait for it"))
            }
        case .interrupted where report.interrupted?.direction == .revert:
            let id = report.interrupted?.id ?? "?"
            sentence = "the revert of \(id) was interrupted: runs and reverts stop at it (exit 2) until it is resolved"
            next.append(.command(hint.arguments("resolve", id, "--done"),
                                 when: "if its undoing is complete (check what its revert did; or you completed it by hand)"))
            next.append(.command(hint.arguments("resolve", id, "--retry"), when: "to run its revert again on the next revert"))
        case .interrupted:
            let id = report.interrupted?.id ?? "?"
            if let mark = report.interrupted, let cursor = mark.cursor, resumes(mark), !idempotent(id) {
                sentence = "\(id) was interrupted; it is resumable and the next run resumes it at its cursor \(cursor)"
                next.append(.command(runOf(mark.phase), when: "resumes it at its cursor"))
                next.append(.command(hint.arguments("resolve", id, "--retry", "--from-start"), when: "to start it over instead"))
            } else if idempotent(id) {
                sentence = "\(id) was interrupted; it is idempotent and runs again on the next run"
                next.append(.command(runOf(report.interrupted?.phase)))
            } else {
                sentence = "\(id) was interrupted and is not idempotent: runs stop at it (exit 2) until it is resolved"
                next.append(.command(hint.arguments("resolve", id, "--done"),
                                     when: "if its work is complete (check what \(id) did; or you completed it by hand)"))
                next.append(.command(hint.arguments("resolve", id, "--retry"), when: "to run it again on the next run"))
            }
        case .failed where report.failed?.direction == .revert:
            let failed = report.failed
            let id = failed?.id ?? "?"
            sentence = "the revert of \(id) failed: \(failed?.error ?? "?")"
            next.append(.command(hint.arguments("revert", "--to", report.state?.reverting?.to.text ?? "VERSION"),
                                 when: "once the cause is fixed: it resumes at \(id)"))
            next.append(.command(hint.arguments("resolve", id, "--done"), when: "if you undid its work by hand"))
        case .failed:
            let failed = report.failed
            let id = failed?.id ?? "?"
            sentence = "\(id): \(failed?.error ?? "?")"
            next.append(.command(runOf(failed?.phase), when: "once the cause is fixed: it resumes at \(id)"))
            next.append(.command(hint.arguments("resolve", id, "--done"), when: "if you did its work by hand"))
        case .revertUnfinished:
            let to = report.state?.reverting?.to.text ?? "?"
            sentence = "a revert to \(to) is unfinished: runs refuse (exit 2) until it is finished"
            next.append(.command(hint.arguments("revert", "--to", to)))
        case .pending:
            let plan = report.plan
            sentence = (report.state == nil ? "a new store, nothing stored yet: " : "")
                + "\(counted(report.pending.count, "step")) to run from \(plan?.from.text ?? "?") to \(plan?.to.text ?? "?")"
            if let gate = plan?.approvalGate?.step.id {
                sentence += "; \(gate) requires approval: runs stop before it (exit \(ExitStatus.awaitingApproval.rawValue)) until it is approved"
                next.append(.command(hint.arguments("approve", gate, "--by", "NAME"), when: "once you have reviewed \(gate)"))
            }
            next.append(.command(run))
        case .new:
            sentence = "a new store: nothing is stored in \(report.store) yet"
                + (report.plan.map { "; a run starts its history at the baseline \($0.from) and runs every step above it" } ?? "")
        case .ok:
            sentence = report.plan.map { target != nil ? "up to date for \($0.to)" : "at \($0.from), nothing unfinished" }
                ?? "at \(report.state?.version.text ?? "?"), nothing unfinished"
        }
        if let takeOver = report.takeOver {
            sentence = "run \(takeOver.previousRun) lost its lease at \(takeOver.at), run \(takeOver.run) took over; " + sentence
            next.append(.command(hint.arguments("history", "--run", takeOver.previousRun), when: takeOver.step.map {
                "shows what run \(takeOver.previousRun) recorded: it was cut off while running \($0), whose work may be partly "
                    + "done (the fence refused all it tried to write after the take-over)"
            } ?? "shows what run \(takeOver.previousRun) recorded before it lost its lease (the fence refused all it "
                + "tried to write after the take-over)"))
        }
        next += Self.waiting(report, runOf: runOf)
        if report.state == nil, verdict != .running {
            next.append(.note("if the store should exist, check --\(OptionNames.store) (or \(Setting.variable(OptionNames.store))): "
                + "a run on a new store runs every step; --\(OptionNames.existingStore) makes a pre-start run refuse one "
                + "(exit \(ExitStatus.storeUnreachable.rawValue))"))
            next.append(.command(hint.arguments("baseline", "VERSION"), when: "if this host already has the effects of earlier steps"))
        }
        if report.plan == nil {
            next.append(.note("pass --manifest (and --to) to see pending steps, drift and steps that never run"))
        } else if target == nil {
            next.append(.note("pass --to VERSION to see what a run to VERSION would do"))
        }
        if !report.drift.isEmpty {
            next.append(.note("drifted steps never run again; to apply a change, add a new step at a threshold above "
                + (report.state?.version.text ?? "the stored version")))
        }
        if !report.neverRun.isEmpty, let plan = report.plan {
            next.append(.note("steps that never run: move them under a threshold above \(plan.from) to run them, or remove them"))
            if report.late.contains(where: { $0.late == .fail }) {
                next.append(.note("late steps under 'late: fail' stop every run (exit \(ExitStatus.invalidManifest.rawValue)): "
                    + "remove them, move them, or give them 'late: run'"))
            }
        }
        if report.plan?.scopeMoved.isEmpty == false {
            next.append(.note("completed steps whose scope changed stop every run (exit \(ExitStatus.invalidManifest.rawValue)): restore their scope, or add a new step (a new id) for the new scope"))
        }
        if !report.orphans.isEmpty {
            next.append(.note("orphans: if a step was renamed, give it `replaces: OLD-ID` so its history carries over; a deleted step needs nothing"))
        }
        if let plan = report.plan, let stop = plan.requiredStop {
            next.append(.note("install the release for \(stop.version) first and run it to \(stop.version): runs from \(plan.from) "
                + "to \(plan.to) are refused (exit \(ExitStatus.stopRequired.rawValue))"))
        }
        headline = sentence
        self.next = next
        hasTarget = target != nil
    }

    /// The runs that run the steps waiting for another phase, as `next` does for an interrupted
    /// one: the contract run once the rollout is done (which waits for the background steps a
    /// contract step is ordered after), the background run.
    private static func waiting(_ report: StatusReport, runOf: (StepPhase?) -> [String]) -> [NextStep] {
        guard let plan = report.plan else { return [] }
        let waiting = plan.waiting
        var next: [NextStep] = []
        let contract = waiting.filter { $0.step.phase == .contract }.map(\.step)
        if !contract.isEmpty {
            let ordered = contract.filter(\.runsAfterBackground).map(\.id)
            next.append(.command(runOf(.contract), when: "once no release older than \(plan.to) runs (after the rollout): runs "
                + contract.map(\.id).joined(separator: ", ")
                + (ordered.isEmpty ? "" : "; \(ordered.joined(separator: ", ")) after the background steps (after: background)")))
        }
        let background = waiting.filter { $0.step.phase == .background }
        if !background.isEmpty {
            next.append(.command(runOf(.background), when: "in the background runner: runs "
                + background.map(\.step.id).joined(separator: ", ")))
        }
        return next
    }
}
