import ArgumentParser
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct Revert: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Undo the completed steps above --to, newest first, then store --to.",
            discussion: """
                Runs the revert of each completed step whose threshold is above --to, in the reverse of the \
                order the steps ran (highest threshold first; under one threshold, the last listed first), \
                with a checkpoint per step as `run` has. A step's revert is registered with it in code, or, \
                for `exec`, written in the manifest as `revert: {command: [...]}`. If any completed step \
                above --to has no revert, nothing is reverted and the command exits 65, listing those steps.

                A reverted step is no longer completed: a later `run` runs it again. Until the revert has \
                stored --to it is unfinished: `run` refuses (exit 2) and `revert --to` the same version or \
                lower goes on with it. A revert interrupted by a kill stops the next revert and run (exit 2) \
                until `milepost resolve ID --done` (its undoing is complete) or `--retry` (run it again).

                Examples:
                  milepost revert --to 2.6 --dry-run
                  milepost revert --to 2.6 && deploy app 2.6
                """)

        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var variables: VariableOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var target: TargetOption
        @Flag(name: .customLong(OptionNames.dryRun), help: "Show which reverts would run, in order; write nothing, take no lock.")
        var dryRun = false
        @Option(name: .customLong(OptionNames.lockTimeout), duration: "How long to wait for another runner's lock.")
        var lockTimeout = DurationArgument(.seconds(60))
        @Option(name: .customLong(OptionNames.terminationGrace), duration: "How long a cancelled revert may take to stop before it is killed.")
        var terminationGrace = DurationArgument(.seconds(25))
        @Option(name: .customLong(OptionNames.format), help: "How to print the result.")
        var format: OutputFormat = .text
        @OptionGroup var logging: LoggingOptions

        func run(in context: CommandContext) async throws {
            let hint = CommandHint(store: store.store, manifest: manifest.manifest)
            try await reportingFailures(hint: hint) {
                let target = try target.required()
                var options = RunOptions()
                options.dryRun = dryRun
                options.lockTimeout = lockTimeout.duration
                options.terminationGrace = terminationGrace.duration
                let progress = RunProgressPrinter(colored: Terminal.stderrIsTTY, interactive: Terminal.stderrIsTTY)
                if format != .json { options.onProgress = progress.handle }
                let ticker = format != .json ? Task { await progress.tick() } : nil
                defer { ticker?.cancel() }
                let runner = Runner(store: try store.open(in: context, manifest: try manifest.named), options: options, logger: logging.makeLogger())
                let (manifest, variables) = (manifest, variables)
                let (report, signal) = try await SignalCancellation.run {
                    try await runner.revert(to: target) { try manifest.load(in: context, variables: try variables.forRunning) }
                }
                let exitCode = Self.exitCode(for: report, signal: signal)
                if format == .json {
                    try JSONOutput.print(RevertDocument(report, exitCode: exitCode, signal: signal))
                } else {
                    RevertText.summarize(report, hint: hint)
                }
                if exitCode != 0 { throw ExitCode(exitCode) }
            }
        }

        static func exitCode(for report: RevertReport, signal: Int32?) -> Int32 {
            switch report.outcome {
            case .upToDate, .succeeded: ExitStatus.ok.rawValue
            case .dryRun: report.plan.irreversible.isEmpty ? ExitStatus.ok.rawValue : ExitStatus.invalidManifest.rawValue
            case .failed: ExitStatus.stepFailed.rawValue
            case .blocked: ExitStatus.needsResolve.rawValue
            case .interrupted: SignalCancellation.exitStatus(for: signal ?? SignalNumber.terminate)
            }
        }
    }
}
