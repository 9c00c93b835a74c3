import ArgumentParser
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct Validate: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a manifest: YAML, versions, step names and their parameters. Writes nothing.",
            discussion: """
                Reports every problem at once, compiler-style, and exits 65 when there is any error. \
                --strict also warns about registered steps the manifest never uses, and exits 65 on \
                warnings too. --store also checks the manifest against that store's history: late \
                steps (errors under 'late: fail'), drift and orphans (warnings). --locked also checks \
                the manifest against milepost.lock (`milepost lock`): a locked step edited or removed \
                is an error, a step not locked yet a warning.

                Examples:
                  milepost validate --manifest manifests/app.yaml
                  milepost validate --manifest app.yaml --strict --format github   # in CI
                  milepost validate --format markdown >> "$GITHUB_STEP_SUMMARY"
                  milepost validate --store /var/lib/app/milepost   # late steps, drift, orphans
                  milepost validate --locked --format github        # in CI: released steps unchanged
                """)

        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var variables: VariableOptions
        @Flag(help: "Warn about registered steps the manifest never uses; fail (65) on any warning.")
        var strict = false
        @Option(name: .customLong(OptionNames.store), help: ArgumentHelp(
            "Also check against this store's history: late steps, drift, orphans (a directory, postgres://… or sqlite:PATH).",
            valueName: "store"))
        var store: String?
        @Flag(help: "Also check against the lock file: a locked step edited or removed is an error.")
        var locked = false
        @OptionGroup var lock: LockFileOption
        @Option(help: "How to print the findings: github prints workflow annotations, markdown a job summary.")
        var format: DiagnosticFormat = .text
        @OptionGroup var logging: LoggingOptions

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                var diagnostics: [Diagnostic]
                let source: ManifestSource
                var stepCount = 0
                var loaded: Manifest?
                do {
                    let read = try manifest.load(in: context, variables: try variables.forChecking)
                    (diagnostics, source, stepCount, loaded) = (read.warnings, read.source, read.steps.count, read)
                } catch ManifestError.invalid(let found, let foundSource) {
                    (diagnostics, source) = (found, foundSource)
                }
                // With --env-file, every unset variable, whichever step uses it (run asks only for its steps').
                if let loaded { diagnostics += loaded.unsetVariables }
                if let loaded, strict { diagnostics += loaded.unusedSteps(in: context.registry) }
                if let loaded, locked { diagnostics += Self.lockFindings(loaded, path: lock.path(manifest: loaded.source.path)) }
                if let loaded, let store {
                    let runner = Runner(store: try context.openStore(StoreOptions.spec(store, manifest: nil)), logger: logging.makeLogger())
                    diagnostics += StoreAudit.findings(try await runner.status(manifest: loaded, to: nil), manifest: loaded)
                }
                let failing = diagnostics.filter { $0.severity == .error || strict }
                let errorCount = diagnostics.count { $0.severity == .error }
                switch format {
                case .json:
                    try JSONOutput.print(ValidateDocument(
                        manifest: source.path, store: store.map(URLPassword.removed(from:)), lockFile: locked ? loaded.map { lock.path(manifest: $0.source.path) } : nil,
                        valid: failing.isEmpty, strict: strict, steps: stepCount,
                        substitutedVariables: loaded?.substitutedVariables ?? [], keptForShell: loaded?.shellReferences ?? [],
                        diagnostics: diagnostics.map(DiagnosticDocument.init)))
                case .markdown:
                    Terminal.out(ValidationMarkdown.render(
                        path: source.path, diagnostics: diagnostics, steps: stepCount, failing: !failing.isEmpty))
                case .github:
                    for diagnostic in diagnostics { Terminal.workflowCommand(DiagnosticRenderer.github(diagnostic)) }
                case .text:
                    let renderer = DiagnosticRenderer(source: source, colored: Terminal.stderrIsTTY)
                    for diagnostic in diagnostics { Terminal.err(renderer.render(diagnostic)) }
                    let warnings = diagnostics.count - errorCount
                    let warned = warnings == 0 ? "" : ", \(counted(warnings, "warning"))"
                    if errorCount > 0 {
                        Terminal.err("\(source.path): \(counted(errorCount, "error"))\(warned)")
                    } else if !failing.isEmpty {
                        Terminal.err("\(source.path): \(counted(stepCount, "step"))\(warned) (--strict fails on warnings)")
                    } else {
                        Terminal.out("\(source.path): ok, \(counted(stepCount, "step"))\(warned)")
                    }
                    if let loaded, let line = Self.substitutions(loaded) { Terminal.out("\(source.path): \(line)") }
                }
                if !failing.isEmpty { throw ExitStatus.invalidManifest.exit }
            }
        }

        /// What the manifest substitutes when it is loaded, and what it keeps for the steps' shells;
        /// nil when its strings have no `${…}`.
        static func substitutions(_ manifest: Manifest) -> String? {
            let parts = [
                manifest.substitutedVariables.isEmpty ? nil
                    : "substitutes " + manifest.substitutedVariables.map { "${\($0)}" }.joined(separator: ", "),
                manifest.shellReferences.isEmpty ? nil
                    : "keeps " + manifest.shellReferences.joined(separator: ", ") + " as written for the step's shell",
            ].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: "; ").escapingControlCharacters()
        }

        /// What `--locked` finds: the lock file's own errors, then the manifest checked against it.
        static func lockFindings(_ manifest: Manifest, path: String) -> [Diagnostic] {
            // Read as a manifest is: a regular file only (a FIFO does not block CI), under a cap far
            // above a lock file's size (a line of ~40 bytes per step).
            guard let data = try? RegularFileReader.contents(path: PathText.filePath(path), maxBytes: 16 << 20) else {
                return [Diagnostic(.error, "cannot read the lock file \(path)", file: path, at: nil,
                                   notes: [.init("write it with `milepost lock` and commit it with the manifest")])]
            }
            let (lock, errors) = ManifestLock.parse(String(decoding: data, as: UTF8.self), file: path)
            return errors + lock.check(manifest, file: path)
        }
    }
}
