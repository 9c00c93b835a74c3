import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a manifest: YAML, versions, step names and their parameters. Writes nothing.",
            discussion: """
                Reports every problem at once, compiler-style, and exits 65 when there is any error.
                Example (CI): milepost validate --manifest manifests/app.yaml --format github
                """)

        @OptionGroup var manifest: ManifestOptions
        @Option(help: "text, json, or github (workflow annotations).") var format: OutputFormat = .text
        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try await reportingFailures {
                let diagnostics: [Diagnostic]
                let source: ManifestSource
                var stepCount = 0
                do {
                    let loaded = try manifest.load()
                    (diagnostics, source, stepCount) = (loaded.warnings, loaded.source, loaded.steps.count)
                } catch ManifestError.invalid(let found, let foundSource) {
                    (diagnostics, source) = (found, foundSource)
                }
                let errors = diagnostics.filter { $0.severity == .error }
                switch format {
                case .json:
                    try JSONOutput.print(ValidateDocument(
                        manifest: source.path, valid: errors.isEmpty, steps: stepCount,
                        diagnostics: diagnostics.map(DiagnosticDocument.init)))
                case .github:
                    for diagnostic in diagnostics { Terminal.out(DiagnosticRenderer.github(diagnostic)) }
                case .text:
                    let renderer = DiagnosticRenderer(source: source, colored: Terminal.stderrIsTTY)
                    for diagnostic in diagnostics { Terminal.err(renderer.render(diagnostic)) }
                    if errors.isEmpty {
                        Terminal.out("\(source.path): ok, \(counted(stepCount, "step"))"
                            + (diagnostics.isEmpty ? "" : ", \(counted(diagnostics.count, "warning"))"))
                    } else {
                        Terminal.err("\(source.path): \(counted(errors.count, "error"))")
                    }
                }
                if !errors.isEmpty { throw ExitCode(65) }
            }
        }
    }
}
