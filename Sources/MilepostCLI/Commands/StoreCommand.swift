import ArgumentParser
import Milepost

extension MilepostCommand {
    /// `milepost store …`: commands on whole stores.
    struct StoreCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store",
            abstract: "Work on whole stores: copy one into another.",
            subcommands: [Copy.self])

        struct Copy: ContextualCommand, LoggingCommand {
            static let configuration = CommandConfiguration(
                abstract: "Copy a store's state and journal into another store (a file store into PostgreSQL, …).",
                discussion: """
                    Copies the stored version, the completed steps, interrupted and failed steps with their \
                    cursors, the compatibility floor and every journal record, in one checkpoint, holding the \
                    lock of both stores (the source's first). The source is only read. A target that already \
                    has a state is refused (exit 64) unless --force, which replaces its state and appends the \
                    copied records after its own. Point runners at the target once it is done.

                    Example:
                      milepost store copy --from /var/lib/app/milepost --to 'postgres://app@db/shop'
                    """)

            @Option(help: ArgumentHelp("The store to copy: a directory or a store URL.", valueName: "store"))
            var from: String
            @Option(help: ArgumentHelp("The store to copy into: a directory or a store URL.", valueName: "store"))
            var to: String
            @Flag(help: "Replace the target's state if it has one.") var force = false
            @Option(name: .customLong(OptionNames.lockTimeout), duration: "How long to wait for each store's lock.")
            var lockTimeout = DurationArgument(.seconds(60))
            @OptionGroup var logging: LoggingOptions

            func validate() throws {
                for (name, value) in [("from", from), ("to", to)] where value.isEmpty {
                    throw ValidationError("--\(name) must not be empty")
                }
            }

            func run(in context: CommandContext) async throws {
                try await reportingFailures {
                    let (source, target) = (try context.openStore(from), try context.openStore(to))
                    let report = try await StoreCopy.copy(
                        from: source, to: target, force: force, lockTimeout: lockTimeout.duration)
                    Terminal.out(("\(source.location) → \(target.location): version \(report.state.version), "
                        + "\(counted(report.state.completed.count, "completed step")), "
                        + "\(counted(report.journalRecords, "journal record")) copied").escapingControlCharacters())
                }
            }
        }
    }
}
