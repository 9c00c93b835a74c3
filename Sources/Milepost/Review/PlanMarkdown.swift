import MilepostSystem

/// A plan as GitHub-flavoured Markdown, for a job summary or a pull-request comment: what runs from
/// → to, each step's description (the manifest's, else the registered one of an application's step), timeout, retries and idempotency, the warnings a reviewer should
/// read, and the steps that do not run.
public enum PlanMarkdown {
    /// `plan` rendered for `manifest` (its app, its warnings, the registered step descriptions).
    public static func render(_ plan: Plan, manifest: Manifest) -> String {
        let origin = switch plan.origin {
        case .stored: "the stored version"
        case .baseline: "the baseline, nothing stored yet"
        case .given: "given"
        }
        let app = manifest.app.map { "\($0.markdownEscaped): " } ?? ""
        let pending = plan.entries.filter { $0.status.isAhead }
        var lines = [
            "### \(app)\(plan.from.text.markdownEscaped) → \(plan.to.text.markdownEscaped)",
            "",
            "From \(plan.from.text.markdownCode) (\(origin)) to \(plan.to.text.markdownCode): "
                + (plan.isDowngrade ? "a downgrade; nothing runs." : "\(counted(pending.count, "step")) to run."),
        ]
        if !pending.isEmpty {
            lines += [
                "",
                "| Step | Description | Timeout | Retries | Idempotent | Why it runs |",
                "| --- | --- | --- | --- | --- | --- |",
            ]
            for entry in pending {
                let step = entry.step
                // The registered description says what a step of the application does; a built-in's says
                // how to use it, which a reviewer does not need.
                let description = step.description ?? (step.definition.isBuiltIn ? nil : step.definition.description)
                let cells: [String] = [
                    step.id.markdownCode, description?.markdownEscaped ?? "",
                    step.timeout.map(DurationText.format) ?? "none", String(step.retries),
                    step.idempotent ? "yes" : "**no**", entry.reason.markdownEscaped,
                ]
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        let warnings = self.warnings(plan, manifest: manifest)
        if !warnings.isEmpty {
            lines += ["", "**Warnings**", ""] + warnings.map { "- ⚠️ " + $0 }
        }
        let others = plan.entries.filter { !$0.status.isAhead }
        if !others.isEmpty {
            lines += [
                "", "<details><summary>Not run: \(counted(others.count, "step"))</summary>", "",
                "| Step | Status | Why |", "| --- | --- | --- |",
            ]
            lines += others.map { "| \($0.step.id.markdownCode) | \($0.status.rawValue) | \($0.reason.markdownEscaped) |" }
            lines += ["", "</details>"]
        }
        return lines.joined(separator: "\n")
    }

    private static func warnings(_ plan: Plan, manifest: Manifest) -> [String] {
        var warnings = manifest.warnings.map { diagnostic in
            "\(diagnostic.location.map { "line \($0.line): " } ?? "")\(diagnostic.message.markdownEscaped)"
        }
        for entry in plan.entries {
            switch entry.status {
            case .skipped:
                warnings.append("\(entry.step.id.markdownCode) will never run: \(entry.reason.markdownEscaped)")
            case .interrupted where entry.blocksRuns:
                warnings.append("\(entry.step.id.markdownCode) was interrupted and is not idempotent: "
                    + "a run stops there (exit 2) until it is resolved")
            case .running:
                warnings.append("\(entry.step.id.markdownCode) is running now: a run waits for its lock first")
            case .awaitingApproval:
                warnings.append("\(entry.step.id.markdownCode) requires approval: a run stops before it until it is approved")
            default: break
            }
        }
        return warnings
    }
}
