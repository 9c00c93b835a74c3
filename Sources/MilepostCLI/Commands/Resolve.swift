import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Resolve: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Clear an interrupted or failed step by hand.",
            discussion: """
                --done records it as completed (you finished or undid its work yourself); --retry lets the \
                next run run it again, at the last cursor it committed (add --from-start to discard the \
                cursor and start over). `milepost status` names the step and prints these commands. For a \
                step whose revert was interrupted or failed (`milepost revert`), --done records it as \
                reverted and --retry lets the next revert run its revert again. With --host-store, the step \
                is looked for in this host's store too (a `scope: host` step is recorded there), under both \
                locks, and resolved where it is marked.

                Examples:
                  milepost resolve 2.7/compactDailys --done
                  milepost resolve 2.7/compactDailys --retry
                  milepost resolve 2.7/compactDailys --retry --from-start
                """)

        @Argument(help: ArgumentHelp("The step id, THRESHOLD/ID.", valueName: "id")) var id: String
        @Flag(help: "Record the step as completed.") var done = false
        @Flag(help: "Run the step again on the next run.") var retry = false
        @Flag(help: "With --retry: discard the step's cursor, so it starts from the beginning.") var fromStart = false
        @Option(name: .customLong(OptionNames.lockTimeout), duration: """
            How long to wait for another runner's lock, and for the processes of a step whose runner \
            was killed.
            """)
        var lockTimeout = DurationArgument(.seconds(60))
        @OptionGroup var store: StoreOptions
        @OptionGroup var hostStore: HostStoreOption
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            if done == retry { throw ValidationError("give exactly one of --done or --retry") }
            if fromStart && !retry { throw ValidationError("--from-start goes with --retry") }
        }

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                var options = RunOptions()
                options.lockTimeout = lockTimeout.duration
                let runner = Runner(
                    store: try store.open(in: context), hostStore: try hostStore.open(in: context), options: options,
                    logger: logging.makeLogger())
                let state = try await runner.maintenance.resolve(id, done ? .done : .retry, fromStart: fromStart)
                let cursor = state.failure(of: id)?.cursor
                let reverted = done && !state.completed.contains { $0.id == id }
                Terminal.out(
                    reverted ? "\(id): recorded as reverted"
                        : !done && state.reverting != nil ? "\(id): its revert runs again on the next revert"
                        : done ? "\(id): recorded as completed"
                        : cursor.map { "\(id): will run again on the next run, at its cursor \($0.escapingControlCharacters())" }
                        ?? "\(id): will run again on the next run")
            }
        }
    }
}
