import ArgumentParser
import Milepost

extension MilepostCommand {
    struct History: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the journal: every run and step, newest last.",
            discussion: """
                A table of time, run, event, step, attempt, duration and result. Writes nothing.

                Examples:
                  milepost history --limit 20
                  milepost history --run 3fa2c01b9d4e --format json
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Show at most the last N records.") var limit: Int?
        @Option(help: ArgumentHelp("Show only the records of this run.", valueName: "run-id")) var run: String?
        @Option(help: "How to print the result.") var format: OutputFormat = .text
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if let limit, limit < 1 { throw ValidationError("--limit takes a positive number") }
        }

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                var records = try await store.open(in: context).readJournal()
                if let run { records = records.filter { $0.run == run } }
                if let limit { records = Array(records.suffix(limit)) }
                if format == .json {
                    try JSONOutput.print(HistoryDocument(records: records))
                } else {
                    Terminal.out(HistoryText.render(records))
                }
            }
        }
    }
}
