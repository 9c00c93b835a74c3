import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Status: ContextualCommand, LoggingCommand {
        /// The exit code of `status --check` when something is pending for --to.
        static let notReady = ExitStatus.notReady.rawValue

        static let configuration = CommandConfiguration(
            abstract: "Show what happened on this store and what to type next. Writes nothing.",
            discussion: """
                Shows the stored version, the last run (when, result, by whom), the lock holder, an \
                interrupted or failed step with the commands that clear it, and — with a manifest — the \
                steps pending for --to, drift and steps that will never run. Reads the manifest when \
                --manifest is given or milepost.yaml exists.

                --check makes it a gate for readiness probes and deploy pipelines: exit 0 when nothing \
                is pending for --to, exit \(notReady) when something is (a step to run, a failed or \
                interrupted step), exit \(ExitStatus.downgradeRefused.rawValue) when --to is below the store's \
                compatibility floor (as `run` and `wait` refuse it). It needs the manifest and --to. Background steps, and contract steps \
                waiting for the rollout, do not keep a release from starting: they count only with \
                --require background (or contract).

                Examples:
                  milepost status --store /var/lib/app/milepost --to 2.7
                  milepost status --check --to "$APP_VERSION" >/dev/null   # readiness probe
                  milepost status --check --require background --to 2.7     # are the background steps done?
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var variables: VariableOptions
        @OptionGroup var target: TargetOption
        @OptionGroup var labels: LabelOptions
        @OptionGroup var hostStore: HostStoreOption
        @Flag(help: "Exit \(notReady) unless nothing is pending for --to.") var check = false
        @Option(help: ArgumentHelp(
            "Count the steps of this phase too: with background, --check is not ready until the background steps up to "
                + "--to are done; with contract, until the contract steps are (default: only what the release needs to start).",
            valueName: "phase"))
        var require: StepPhase?
        @Option(help: "How to print the result: github adds a workflow annotation for a failed or interrupted step.")
        var format: ReportFormat = .text
        @OptionGroup var logging: LoggingOptions

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let target: Version? = check ? try target.required() : try target.resolved()
                let loaded = try check || manifest.isAvailable ? try manifest.load(in: context, variables: try variables.forChecking, requiringAll: true) : nil
                var options = RunOptions()
                options.labels = try labels.expression
                options.phase = require ?? .preStart
                let runner = Runner(
                    store: try store.open(in: context, manifest: try manifest.named), hostStore: try hostStore.open(in: context),
                    options: options, logger: logging.makeLogger())
                let report = try await runner.status(manifest: loaded, to: target)
                let hint = CommandHint(store: store.store, manifest: manifest.manifest, hostStore: hostStore.hostStore)
                let advice = StatusAdvice(report, hint: hint, target: target)
                let app = report.state?.app ?? loaded?.app
                if format == .json {
                    try JSONOutput.print(StatusDocument(report, app: app, advice: advice))
                } else {
                    Terminal.out(StatusText.render(report, app: app, advice: advice, colored: Terminal.stdoutIsTTY))
                }
                if format == .github {
                    let annotation = StepAnnotation(manifest: loaded?.source.path, plan: report.plan)
                    if let interrupted = report.interrupted {
                        Terminal.workflowCommand(annotation.interrupted(
                            interrupted.id, error: StepAnnotation.blocking(interrupted), stderr: interrupted.stderr))
                    }
                    if let failed = report.failed {
                        Terminal.workflowCommand(annotation.failed(failed.id, error: failed.error, stderr: failed.stderr))
                    }
                    if let gate = report.plan?.approvalGate, let loaded {
                        Terminal.workflowCommand(StepAnnotation.awaitingApproval(gate.step, file: loaded.source.path, hint: hint))
                    }
                }
                if check, case .belowFloor = report.readiness { throw ExitStatus.downgradeRefused.exit }
                if check, !report.isReady { throw ExitStatus.notReady.exit }
            }
        }
    }
}
