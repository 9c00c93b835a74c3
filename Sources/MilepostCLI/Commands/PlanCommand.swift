import ArgumentParser
import Milepost

extension MilepostCommand {
    struct PlanCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Show which steps a run to --to would run, and why the others would not. Writes nothing.",
            discussion: """
                With --from it needs no store at all: "what runs for a host upgrading from 2.0 to 2.7?"
                Example (CI): milepost plan --manifest manifests/app.yaml --from 2.0 --to 2.7 --format json
                """)

        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var store: StoreOptions
        @Option(help: ArgumentHelp("Plan from this version instead of the store's.", valueName: "version"))
        var from: Version?
        @OptionGroup var target: TargetOption
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if from != nil, store.store != nil { throw ValidationError("give either --store or --from, not both") }
            if format == .github { throw ValidationError("plan prints text or json") }
        }

        func run() async throws {
            try await reportingFailures {
                let target = try target.required()
                let loaded = try manifest.load()
                let plan = if let from {
                    Planner.plan(loaded, state: nil, from: from, origin: .given, to: target)
                } else {
                    try await Runner(store: try store.open(), logger: logging.makeLogger()).plan(loaded, to: target)
                }
                if format == .json {
                    try JSONOutput.print(PlanDocument(plan, manifest: loaded))
                } else {
                    Terminal.out(PlanText.render(plan, app: loaded.app, colored: Terminal.stdoutIsTTY))
                }
            }
        }
    }
}
