import ArgumentParser
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct Approve: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Approve a step that requires approval, so that the next run may start it.",
            discussion: """
                A step with requires: approval stops every run before it (exit \(ExitStatus.awaitingApproval.rawValue)) until \
                an approval of it as it is now is journaled: edit the step and it needs a new one. --by names \
                who approves (default: $USER). With --plan, the approval is for that reviewed plan \
                (`plan --out`) and lets only `run --plan` of it start the step; it is refused unless the plan \
                runs the step as the manifest has it now. The approval shows in `history`, in the run's \
                trace and in its GitHub annotations.

                Examples:
                  milepost approve 3.0/drop-legacy-columns --by alice
                  milepost approve 3.0/drop-legacy-columns --by alice --plan plan.json
                """)

        @Argument(help: ArgumentHelp("The step id, THRESHOLD/ID.", valueName: "id")) var id: String
        @Option(help: ArgumentHelp("Who approves (default: $USER).", valueName: "name")) var by: String?
        @Option(help: ArgumentHelp("Approve the step for this reviewed plan only (`plan --out`).", valueName: "file"))
        var plan: String?
        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var variables: VariableOptions
        @OptionGroup var store: StoreOptions
        @Option(name: .customLong(OptionNames.lockTimeout), duration: "How long to wait for another runner's lock.")
        var lockTimeout = DurationArgument(.seconds(60))
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if by?.isEmpty == true { throw ValidationError("--by must not be empty") }
        }

        func run(in context: CommandContext) async throws {
            let hint = CommandHint(store: store.store, manifest: manifest.manifest)
            try await reportingFailures(hint: hint) {
                let loaded = try manifest.load(in: context, variables: try variables.forChecking)
                var options = RunOptions()
                options.lockTimeout = lockTimeout.duration
                let runner = Runner(
                    store: try store.open(in: context, manifest: try manifest.named), options: options, logger: logging.makeLogger())
                let approver = by ?? ProcessEnvironment.value("USER") ?? ProcessEnvironment.value("LOGNAME") ?? ProcessIdentity.text
                let approval = try await runner.approve(id, by: approver, in: loaded, plan: try plan.map(PlanFileReading.read))
                Terminal.out("\(id): approved by \(approval.by)".escapingControlCharacters()
                    + (plan.map { " for the plan \($0.escapingControlCharacters())" } ?? ""))
                let run = plan.map { hint.milepost("run", "--plan", $0) } ?? hint.milepost("run", "--to", "VERSION")
                Terminal.err("milepost: the next run may start it: `\(run)`")
            }
        }
    }
}
