import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Baseline: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record VERSION as reached without running anything (steps at or below it never run).",
            discussion: """
                For a host that already has the effects of earlier steps. Refuses a store that already has \
                a state unless --force.

                Example:
                  milepost baseline 2.1 --store /var/lib/app/milepost
                """)

        @Argument(help: "The version to record.", transform: Version.argument) var version: Version
        @OptionGroup var store: StoreOptions
        @Flag(help: "Replace an existing state's version (keeps its completed steps).") var force = false
        @OptionGroup var logging: LoggingOptions

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let runner = Runner(store: try store.open(in: context), logger: logging.makeLogger())
                let state = try await runner.maintenance.baseline(version, force: force)
                Terminal.out("\(runner.store.location): baseline set to \(state.version)".escapingControlCharacters())
            }
        }
    }
}
