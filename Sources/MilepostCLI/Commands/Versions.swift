import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Versions: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the versions the store reached, oldest first.",
            discussion: """
                Each version reached by a successful run or a baseline, with when and how, then the \
                current, previous and first installed version. Reads the whole journal; writes nothing.

                Examples:
                  milepost versions
                  milepost versions --store /var/lib/app/.milepost --format json
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "How to print the result.") var format: OutputFormat = .text
        @OptionGroup var logging: LoggingOptions

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let history = try await store.open(in: context).versionHistory()
                if format == .json {
                    try JSONOutput.print(VersionsDocument(history))
                } else {
                    Terminal.out(VersionsText.render(history))
                }
            }
        }
    }
}
