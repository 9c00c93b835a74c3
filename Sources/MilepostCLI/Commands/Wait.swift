import ArgumentParser
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct Wait: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wait until another runner has brought the store to --to. Runs nothing, writes nothing.",
            discussion: """
                For replicas that must not run steps themselves (another Deployment's init container, a \
                worker that starts after the migrating service): reads the stored state every \
                --interval, without the lock and without holding a transaction, and exits 0 as soon as \
                the store is ready for --to, by the rule `status --check` shares: the stored version is \
                at or above --to, no revert is unfinished, no step at or below --to is interrupted or \
                failed. Exits 1 at once when such a step failed, 2 when it was interrupted or a revert is \
                unfinished (only while no run holds the lock: a run holding it may still finish or \
                retry), 3 at once when --to is below the store's compatibility floor (as `run` refuses it: \
                a contract step of a newer release made it incompatible), 75 when --timeout passes first. \
                A store that cannot be reached yet is tried again until the timeout (then 69). Prints \
                one line on stderr (or the JSON document on stdout).

                Examples:
                  milepost wait --store postgres://app@db/shop --to 2.7 --timeout 10m && exec worker
                  milepost wait --to "$APP_VERSION" --timeout 30s --format json
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var target: TargetOption
        @Option(duration: "How long to wait before giving up (exit 75).") var timeout = DurationArgument(.seconds(600))
        @Option(duration: "How often to read the stored state.") var interval = DurationArgument(.milliseconds(500))
        @Option(help: "How to print the result.") var format: OutputFormat = .text
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if interval.duration <= .zero { throw ValidationError("--interval takes a positive duration") }
        }

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let target = try target.required()
                let runner = Runner(store: try store.open(in: context), logger: logging.makeLogger())
                let report = try await runner.store.wait(for: target, timeout: timeout.duration, interval: interval.duration)
                let exitCode = Self.exitCode(for: report.outcome)
                if format == .json {
                    try JSONOutput.print(WaitDocument(report, exitCode: exitCode))
                } else {
                    Terminal.err(
                        "milepost: " + Self.summary(report, hint: CommandHint(store: store.store, manifest: nil))
                            .escapingControlCharacters())
                }
                if exitCode != 0 { throw ExitCode(exitCode) }
            }
        }

        static func exitCode(for outcome: WaitOutcome) -> Int32 {
            switch outcome {
            case .reached: ExitStatus.ok.rawValue
            case .failed: ExitStatus.stepFailed.rawValue
            case .blocked, .revertUnfinished: ExitStatus.needsResolve.rawValue
            case .downgradeRefused: ExitStatus.downgradeRefused.rawValue
            case .timedOut: ExitStatus.lockTimeout.rawValue
            }
        }

        /// The line printed on stderr.
        static func summary(_ report: WaitReport, hint: CommandHint) -> String {
            let waited = DurationText.format(report.waited)
            let stored = report.state.map { "the store is at \($0.version)" } ?? "nothing is stored yet"
            switch report.outcome {
            case .reached:
                return "\(stored) (≥ \(report.target)) after \(waited)"
            case .failed:
                let failed = report.failed
                return "step \(failed?.id ?? "?") failed (\(failed?.error ?? "?")) and no run is retrying it; "
                    + "see `\(hint.milepost("status"))`"
            case .blocked:
                let step = report.interrupted
                return "step \(step?.id ?? "?") was interrupted and no run holds the lock; "
                    + "see `\(hint.milepost("status"))`"
            case .revertUnfinished:
                let to = report.state?.reverting?.to.text ?? "?"
                return "a revert to \(to) is unfinished and no revert holds the lock: no version is ready until it is "
                    + "finished; `\(hint.milepost("revert", "--to", to))`"
            case .downgradeRefused:
                return report.refusal.map(DowngradeAdvice.sentence) ?? "\(report.target) is below the store's compatibility floor"
            case .timedOut where report.state == nil:
                return "gave up after \(waited): nothing is stored in this store yet, waiting for \(report.target); "
                    + "if it should exist, check --\(OptionNames.store) (or \(Setting.variable(OptionNames.store))) for a typo"
            case .timedOut:
                return "gave up after \(waited): \(stored), waiting for \(report.target)"
            }
        }
    }
}
