import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Resolve: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clear an interrupted or failed step by hand.",
            discussion: """
                --done records it as completed (you finished or undid its work yourself); --retry lets the \
                next run run it again. `milepost status` names the step and prints these commands.

                Examples:
                  milepost resolve 2.7/compactDailys --done
                  milepost resolve 2.7/compactDailys --retry
                """)

        @Argument(help: ArgumentHelp("The step id, THRESHOLD/ID.", valueName: "id")) var id: String
        @Flag(help: "Record the step as completed.") var done = false
        @Flag(help: "Run the step again on the next run.") var retry = false
        @OptionGroup var store: StoreOptions
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if done == retry { throw ValidationError("give exactly one of --done or --retry") }
        }

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let runner = Runner(store: try store.open(in: context), logger: logging.makeLogger())
                _ = try await runner.resolve(id, done ? .done : .retry)
                Terminal.out(done ? "\(id): recorded as completed" : "\(id): will run again on the next run")
            }
        }
    }
}
