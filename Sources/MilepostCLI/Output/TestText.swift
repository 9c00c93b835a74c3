import Milepost
import MilepostSystem

/// `milepost test` for humans: a table per upgrade path (the point, its step, how the killed run
/// ended, what the next run did, whether `--verify` agrees, and the previous release's replica),
/// then a sentence per difference, and the seed that reproduces the sample.
enum TestText {
    static func render(_ report: CrashTest.Report, colored: Bool) -> String {
        var lines: [String] = []
        for path in report.paths {
            let interruptions = path.interruptions
            if !lines.isEmpty { lines.append("") }
            lines.append(Terminal.paint(
                "=== upgrade path \(interruptions.from) → \(interruptions.to): \(counted(interruptions.points.count, "commit point")), "
                    + "\(counted(interruptions.trials.count, "trial")) ===", .bold, colored: colored))
            let previous = interruptions.trials.contains { $0.previousRelease != nil }
            var rows = [["POINT", "STEP", "KILLED", "NEXT RUN", "VERIFY"] + (previous ? ["PREVIOUS RELEASE"] : [])]
            for (trial, termination) in zip(interruptions.trials, path.terminations) {
                rows.append(row(trial, termination: termination) + (previous ? [trial.previousRelease.map(previousColumn) ?? "-"] : []))
            }
            let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
            for (index, row) in rows.enumerated() {
                let line = "  " + zip(row, widths).map { $0.padding($1) }.joined(separator: "  ").trimmingTrailingSpaces()
                let agrees = index == 0 || interruptions.trials[index - 1].agrees
                lines.append(Terminal.paint(line.escapingControlCharacters(), index == 0 ? .dim : agrees ? .green : .red, colored: colored))
            }
            for finding in interruptions.findings {
                lines.append((finding.isFailure ? "error: " : "note: ") + finding.description.escapingControlCharacters())
            }
        }
        let trials = report.paths.flatMap(\.interruptions.trials)
        let differing = trials.filter { !$0.agrees }.count
        let sample = report.selection.maxTrials.map { ", at most \($0) per path" } ?? ""
        lines.append("")
        lines.append(differing == 0
            ? "every trial agrees: \(counted(trials.count, "trial")) (seed \(report.selection.seed)\(sample))"
                + (report.agrees ? "" : "; the errors above fail the test")
            : "\(differing) of \(counted(trials.count, "trial")) differ (seed \(report.selection.seed)\(sample): "
                + "--seed \(report.selection.seed) tries the same points again)")
        if let (noun, names) = report.leftOnServer {
            lines.append("note: the trials' \(noun) are left on the server: \(names.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }

    /// A trial's point, step, how its killed run ended, what the next run did, and `--verify`'s verdict.
    private static func row(_ trial: InterruptionTrial, termination: ChildProcess.Termination) -> [String] {
        let point = "\(trial.crash.moment.rawValue) \(trial.crash.point.commit.replacing(" commit", with: ""))"
        let killed = trial.reached ? "\(termination)" : "not reached (\(termination))"
        let verify: String = if trial.unfinished != nil { "-" }
            else if let difference = trial.difference { difference.replacing("verify ", with: "") }
            else { "equal" }
        return [point, trial.crash.point.step ?? "-", killed, trial.recovery?.description ?? "-", verify]
    }

    /// `starts`, `refused (exit 3)`, and what was expected when it differs.
    private static func previousColumn(_ check: PreviousReleaseCheck) -> String {
        let did = check.exitCode == 0 ? "starts" : "refused (exit \(check.exitCode))"
        return check.agrees ? did : "\(did), must \(check.expected == .starts ? "start" : "be refused")"
    }

    /// The GitHub Actions annotations of `--format github`: an error at the manifest line of each
    /// step a failure is about (a warning for a note), the run's own points at the manifest.
    static func annotations(_ report: CrashTest.Report, manifest: Manifest) -> [String] {
        report.paths.flatMap { path in
            path.interruptions.findings.map { finding in
                DiagnosticRenderer.github(Diagnostic(
                    finding.isFailure ? .error : .warning, "from \(path.interruptions.from): \(finding)",
                    file: manifest.source.path, at: finding.step.flatMap(manifest.step(id:))?.location))
            }
        }
    }
}
