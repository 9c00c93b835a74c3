import ArgumentParser
import Milepost

extension MilepostCommand {
    struct History: ContextualCommand, LoggingCommand {
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
                let opened = try store.open(in: context)
                var records: [JournalRecord]
                if let run {
                    records = try await opened.readJournal().filter { $0.run == run }
                    if let limit { records = Array(records.suffix(limit)) }
                } else if let limit {
                    records = try await opened.readJournal(last: limit)
                } else {
                    records = try await opened.readJournal()
                }
                if format == .json {
                    try JSONOutput.print(HistoryDocument(records: records))
                } else {
                    Terminal.out(HistoryText.render(records))
                }
            }
        }
    }
}
