import ArgumentParser
import Milepost
import MilepostSystem
import Tracing

extension MilepostCommand {
    struct Run: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run every pending step up to --to, once, with a checkpoint per step.",
            discussion: """
                When the store is already at --to and the manifest (with --env-file and the files its steps read as \
                their definition) is byte for byte the one it was last planned with, this reads only the state and \
                those files and exits 0: safe and fast as a pre-start hook (not with --labels, which may bring in \
                steps an earlier run left out). Any change to them makes the run plan. Runners on one store take turns (--lock-timeout); SIGTERM, SIGINT, SIGHUP and \
                SIGQUIT stop the current step, journal it as interrupted and exit 128 + the signal (143, \
                130, 129, 131). Progress goes to stderr; when \
                stderr is not a terminal a long step prints a "still running" line every 10 s.

                --deadline D stops the run before a step whose p95 (from the store's journal and each --history \
                store; else its expected:) no longer fits what is left of D since the run started, exit \
                \(ExitStatus.deadline.rawValue), the store as the steps before it left it. --plan FILE runs exactly the \
                steps of a plan written by `plan --out` (its --to, --labels and --phase too), or refuses before any \
                step, exit \(ExitStatus.planChanged.rawValue), saying what changed; a store another runner already \
                brought to the target is up to date, exit 0. A step with requires: approval stops the run before it, \
                exit \(ExitStatus.awaitingApproval.rawValue), until `milepost approve` records an approval of it.

                Examples:
                  milepost run --to 2.7 --dry-run
                  milepost run --to 2.7 --labels 'eu and not heavy'
                  milepost run --manifest /etc/app/milepost.yaml --to 2.7 && exec app
                  milepost run --to 2.7 --deadline 4m   # inside a 5 min activeDeadlineSeconds
                  milepost run --plan plan.json
                """)

        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var variables: VariableOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var hostStore: HostStoreOption
        @OptionGroup var target: TargetOption
        @OptionGroup var labels: LabelOptions
        @OptionGroup var phase: PhaseOption
        @OptionGroup var deadline: DeadlineOption
        @OptionGroup var history: HistoryOption
        @Option(
            name: .customLong(OptionNames.plan),
            help: ArgumentHelp(
                "Run exactly the steps of this reviewed plan (`plan --out`), with its --to, --labels and --phase, or refuse "
                    + "saying what changed \(Setting.help(OptionNames.plan)).",
                valueName: "file"))
        var plan: String?
        @Flag(
            name: .customLong(OptionNames.dryRun),
            help: "Show what would run; write nothing, take no lock \(Setting.help(OptionNames.dryRun)).")
        var dryRun = false
        @Option(long: OptionNames.lockTimeout, duration: "How long to wait for another runner's lock.", default: Defaults.lockTimeout)
        var lockTimeout: DurationArgument?
        @Option(
            long: OptionNames.terminationGrace, duration: "How long a cancelled step may take to stop before it is killed.",
            default: Defaults.terminationGrace)
        var terminationGrace: DurationArgument?
        @Option(
            long: OptionNames.progressInterval,
            duration: "The least time between two writes of a step's progress to the store (status, journal).",
            default: Defaults.progressInterval)
        var progressInterval: DurationArgument?
        @Flag(
            name: .customLong(OptionNames.allowDowngrade),
            help: ArgumentHelp(
                "Accept a --to below the stored version: exit 0 and keep the stored version \(Setting.help(OptionNames.allowDowngrade)).",
                discussion: "Below the store's compatibility floor this only lets the old release start, against what a "
                    + "newer release's contract steps changed: roll forward instead."))
        var allowDowngrade = false
        @Flag(
            name: .customLong(OptionNames.existingStore),
            help: ArgumentHelp(
                "Refuse a store that stores nothing yet: exit \(ExitStatus.storeUnreachable.rawValue), creating nothing "
                    + "\(Setting.help(OptionNames.existingStore)).",
                discussion: "For pre-start hooks: a misspelled --store then fails the start instead of running every step "
                    + "on a new store. Start a store's history once without it (or with `baseline`)."))
        var existingStore = false
        @Option(
            name: .customLong(OptionNames.format),
            help: ArgumentHelp(
                "How to print the result: github adds a workflow annotation for a failed or interrupted step "
                    + "\(Setting.help(OptionNames.format, default: "text"))."))
        var format: ReportFormat?
        @Option(
            name: .customLong(OptionNames.metricsFile),
            help: ArgumentHelp(
                "Write the run's metrics to this file in Prometheus text format \(Setting.help(OptionNames.metricsFile)); it is replaced atomically.",
                discussion: "For node_exporter's textfile collector: name it *.prom in its directory.",
                valueName: "path"))
        var metricsFile: String?
        @OptionGroup var logging: LoggingOptions

        /// The defaults of the options that a flag, else a variable, else these give.
        enum Defaults {
            static let lockTimeout = Duration.seconds(60)
            static let terminationGrace = Duration.seconds(25)
            static let progressInterval = Duration.seconds(5)
        }

        /// Refuses an empty or bad variable of `run`'s own options while parsing, with the usage.
        func validate() throws {
            _ = try settings()
            _ = try Setting.value(flag: plan, named: OptionNames.plan, environment: Setting.variable(OptionNames.plan))
        }

        /// The reviewed plan `--plan` (or `MILEPOST_PLAN`) names; nil when neither names one.
        /// - throws: `ValidationError` when the file cannot be read or is not a plan file.
        func reviewedPlan() throws -> PlanFile? {
            guard let path = try Setting.value(flag: plan, named: OptionNames.plan, environment: Setting.variable(OptionNames.plan)) else {
                return nil
            }
            return try PlanFileReading.read(path)
        }

        /// `run`'s own options, each from its flag, else its variable (`Setting`), else its default.
        func settings() throws -> (options: RunOptions, format: ReportFormat, metricsFile: String?) {
            var options = RunOptions()
            options.dryRun = try Setting.isOn(dryRun, named: OptionNames.dryRun)
            options.allowDowngrade = try Setting.isOn(allowDowngrade, named: OptionNames.allowDowngrade)
            options.createsStore = try !Setting.isOn(existingStore, named: OptionNames.existingStore)
            options.lockTimeout = try Setting.value(lockTimeout, named: OptionNames.lockTimeout)?.duration ?? Defaults.lockTimeout
            options.terminationGrace =
                try Setting.value(terminationGrace, named: OptionNames.terminationGrace)?.duration ?? Defaults.terminationGrace
            options.progressInterval =
                try Setting.value(progressInterval, named: OptionNames.progressInterval)?.duration ?? Defaults.progressInterval
            let format = try Setting.value(self.format, named: OptionNames.format) ?? .text
            options.commitTrap = try CrashTrialVariable.trap()
            return (options, format, try Setting.value(metricsFile, named: OptionNames.metricsFile))
        }

        func run(in context: CommandContext) async throws {
            let hint = CommandHint(store: store.store, manifest: manifest.manifest, hostStore: hostStore.hostStore)
            try await reportingFailures(hint: hint) {
                var (options, format, metricsFile) = try settings()
                CrashTrialVariable.withholdFromSteps()
                options.reviewedPlan = try reviewedPlan()
                // A reviewed plan's own target, labels and phase, unless given: given, they must be the plan's.
                let target = try options.reviewedPlan.map { try self.target.resolved() ?? $0.to } ?? self.target.required()
                options.labels = try labels.expression ?? options.reviewedPlan?.labels.map { try LabelExpression(parsing: $0) }
                options.phase = try phase.given ?? options.reviewedPlan?.phase ?? .preStart
                options.deadline = try deadline.resolved
                options.history = try history.open(in: context)
                options.manifestInputs = try manifest.inputs(variables)
                let progress = RunProgressPrinter(colored: Terminal.stderrIsTTY, interactive: Terminal.stderrIsTTY)
                if format != .json { options.onProgress = progress.handle }
                if try logging.format == .json { options.onProgress = JSONLogHandler.trackingSteps(options.onProgress) }
                let ticker = format != .json ? Task { await progress.tick() } : nil
                defer { ticker?.cancel() }
                // The store first: a store that cannot be opened starts no exporter.
                let opened = try store.open(in: context, manifest: try manifest.named)
                let supervisor = try ServiceManagerStatus.start(forwarding: &options.onProgress, logger: logging.makeLogger())
                let observability = RunObservability.start(metricsFile: metricsFile, exporter: context.telemetry)
                let runner = Runner(
                    store: opened, hostStore: try hostStore.open(in: context), options: options, logger: logging.makeLogger(metadataProvider: observability.logMetadata))
                let (manifest, variables) = (manifest, variables)
                let outcome: Result<(RunReport, Int32?), any Error>
                do {
                    outcome = .success(try await InstrumentationContext.withValue(observability.parentContext()) {
                        try await SignalCancellation.run {
                            try await runner.run(to: target) { try manifest.load(in: context, variables: try variables.forRunning) }
                        }
                    })
                } catch {
                    outcome = .failure(error)
                }
                supervisor?.finish(outcome)
                await observability.finish()
                let (report, signal) = try outcome.get()
                let exitCode = Self.exitCode(for: report.outcome, signal: signal)
                try Self.show(
                    report, format: format, exitCode: exitCode, signal: signal, progress: progress, hint: hint,
                    file: try manifest.path)
                if exitCode != 0 { throw ExitCode(exitCode) }
            }
        }

        /// Prints the outcome: the JSON document, or the human summary on stderr.
        /// `file` is the manifest's path, for the located findings about late steps.
        static func show(
            _ report: RunReport, format: ReportFormat, exitCode: Int32, signal: Int32?, progress: RunProgressPrinter,
            hint: CommandHint, file: String
        ) throws {
            if format == .json {
                try JSONOutput.print(RunDocument(report, exitCode: exitCode, signal: signal))
                return
            }
            progress.summarize(report, hint: hint, file: file)
            guard format == .github else { return }
            for approval in report.approvals { Terminal.workflowCommand(StepAnnotation.approved(approval)) }
            if report.outcome == .awaitingApproval, let gate = report.plan?.approvalGate {
                Terminal.workflowCommand(StepAnnotation.awaitingApproval(gate.step, file: file, hint: hint))
            }
            if let refusal = report.deadlineRefusal {
                Terminal.workflowCommand(DiagnosticRenderer.githubError(title: "milepost: \(refusal.step) does not fit the deadline", refusal.message))
            }
            if report.outcome == .planChanged {
                Terminal.workflowCommand(DiagnosticRenderer.githubError(
                    title: "milepost: the plan changed", report.planChanges.map(\.message).joined(separator: "\n")))
            }
            let annotation = StepAnnotation(manifest: file, plan: report.plan)
            for step in report.steps {
                switch step.status {
                case .succeeded: continue
                case .failed: Terminal.workflowCommand(annotation.failed(step.id, error: step.error ?? "", stderr: step.stderr))
                case .interrupted: Terminal.workflowCommand(annotation.interrupted(step.id, error: step.error ?? "", stderr: step.stderr))
                }
            }
            if let blocked = report.interrupted {
                Terminal.workflowCommand(annotation.interrupted(blocked.id, error: StepAnnotation.blocking(blocked), stderr: blocked.stderr))
            }
        }

        static func exitCode(for outcome: RunReport.Outcome, signal: Int32?) -> Int32 {
            guard outcome.isFailure else { return ExitStatus.ok.rawValue }
            return switch outcome {
            case .upToDate, .succeeded, .downgradeAllowed, .downgradeCompatible, .dryRun: preconditionFailure("\(outcome) is no failure")
            case .failed: ExitStatus.stepFailed.rawValue
            case .blocked, .revertUnfinished: ExitStatus.needsResolve.rawValue
            case .downgradeRefused: ExitStatus.downgradeRefused.rawValue
            case .stopRequired: ExitStatus.stopRequired.rawValue
            case .lateRefused: ExitStatus.invalidManifest.rawValue
            case .deadlineRefused: ExitStatus.deadline.rawValue
            case .planChanged: ExitStatus.planChanged.rawValue
            case .awaitingApproval: ExitStatus.awaitingApproval.rawValue
            case .interrupted: SignalCancellation.exitStatus(for: signal ?? SignalNumber.terminate)
            }
        }
    }
}
