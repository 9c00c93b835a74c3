import Milepost

/// `milepost plan` for humans: one line per step with its status and reason.
enum PlanText {
    /// `plan --from V`'s last line: the plan is an upgrade (a store at V), while a host with no store
    /// would be a fresh install from the manifest's `baseline:`, and `milepost baseline` is what
    /// turns a store with no state into an upgrade.
    static func withoutStoreNote(from: Version, baseline: Version, hint: CommandHint) -> String {
        "note: a store at \(from) makes this an upgrade (when: upgrade steps run, when: fresh-install steps do not); "
            + "a host with no store would be a fresh install from the baseline \(baseline) (when: fresh-install steps run, "
            + "when: upgrade steps do not), unless `\(hint.milepost("baseline", from.text))` records \(from) on its store first"
    }

    /// The heading of one plan of `plan --from A --from B`: the upgrade path it plans.
    static func pathHeading(_ plan: Plan, colored: Bool) -> String {
        Terminal.paint("=== upgrade path \(plan.from) → \(plan.to) ===", .bold, colored: colored)
    }

    /// `durations`: what history says of the steps ahead (one line under each); nil: not shown.
    static func render(_ plan: Plan, app: String?, hint: CommandHint, colored: Bool, durations: StepDurations? = nil) -> String {
        let origin = switch plan.origin {
        case .stored: "stored"
        case .baseline: "baseline, nothing stored yet"
        case .given: "--from"
        }
        var lines = ["\(app.map { "\($0.escapingControlCharacters()): " } ?? "")\(plan.from) (\(origin)) → \(plan.to): "
            + (plan.isDowngrade ? "a downgrade; nothing would run" : "\(counted(plan.pending.count, "step")) to run")]
        if let stop = plan.requiredStop {
            lines.append("refused: a run stops here, before any step (exit \(ExitStatus.stopRequired.rawValue)): \(stop.message(from: plan.from, to: plan.to))")
        }
        let width = plan.entries.map(\.step.id.count).max() ?? 0
        let statusWidth = statusColumn(plan.entries)
        // Lines under a step start under its id.
        let indent = String(repeating: " ", count: statusWidth + 3)
        for entry in plan.entries {
            let label = entry.status.rawValue.padding(statusWidth)
            let style: Terminal.Style = switch entry.status {
            case .pending, .running: .green
            case .interrupted, .awaitingApproval: .red
            case .skipped: .yellow
            case .completed, .aboveTarget, .outOfScope, .reverted, .waiting: .dim
            }
            let reason = entry.reason + (plan.inclusion(of: entry).map { " (\($0))" } ?? "")
            lines.append("  \(Terminal.paint(label, style, colored: colored)) \(entry.step.id.padding(width))  "
                + PlanText.tags(of: entry.step) + reason.escapingControlCharacters())
            if let description = entry.step.description {
                lines.append(indent + Terminal.paint(description.escapingControlCharacters(), .dim, colored: colored))
            }
            if let durations, entry.status.isAhead || entry.status == .waiting {
                lines.append(indent
                    + Terminal.paint("duration: " + EstimateText.line(durations.estimate(for: entry.step)), .dim, colored: colored))
            }
            if entry.step.requiresApproval, entry.status.isAhead, let approval = plan.approvals.approval(of: entry.step) {
                lines.append(indent + "approved by \(approval.by) at \(approval.at)".escapingControlCharacters())
            }
        }
        if let gate = plan.approvalGate {
            lines.append("note: \(gate.step.id) requires approval: a run stops before it (exit \(ExitStatus.awaitingApproval.rawValue)) until"
                + " `\(hint.milepost("approve", gate.step.id, "--by", "NAME"))`")
        }
        for entry in plan.entries where entry.blocksRuns {
            lines.append("note: \(entry.step.id) is not idempotent: a run stops there (exit 2) until"
                + " `\(hint.milepost("resolve", entry.step.id, "--done"))` or `--retry`")
        }
        if let running = plan.running { lines.append(runningNote(running.step.id)) }
        let refused = plan.lateRefused.map(\.step.id)
        if !refused.isEmpty {
            lines.append("refused: a run stops here, before any step (exit \(ExitStatus.invalidManifest.rawValue)): late steps under 'late: fail': \(refused.joined(separator: ", "))")
        }
        let moved = plan.scopeMoved.map(\.step.id)
        if !moved.isEmpty {
            lines.append("refused: a run stops here, before any step (exit \(ExitStatus.invalidManifest.rawValue)): completed steps whose scope changed: \(moved.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    /// The width of a status column: 12, or the longest status among `entries` (`awaiting-approval`).
    static func statusColumn(_ entries: [Plan.Entry]) -> Int {
        max(12, entries.map(\.status.rawValue.count).max() ?? 0)
    }

    /// `[contract]`, `[background]`, `[host]`: what a step's `phase:` and `scope:` make it, before its reason.
    static func tags(of step: ManifestStep) -> String {
        (step.phase == .preStart ? "" : "[\(step.phase.rawValue)] ") + (step.scope == .fleet ? "" : "[\(step.scope.rawValue)] ")
    }

    /// What a `plan` or a dry run says while another runner holds the lock and runs `id`.
    static func runningNote(_ id: String) -> String {
        "note: another runner is running \(id) now; a run waits for its lock (--lock-timeout), then goes on from where it ends"
    }
}

extension String {
    /// Left-aligned in `width` columns.
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
