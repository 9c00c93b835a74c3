public import Milepost
import Foundation

/// The command line as a library: an application gets its own `milepost`-compatible binary with
/// its own steps in one line.
///
/// ```swift
/// @main enum TiTiMigrate {
///     static func main() async {
///         await MilepostCLI.main(registry: .standard.installing(TiTiSteps.self))
///     }
/// }
/// ```
public enum MilepostCLI {
    /// Parses the process arguments, runs the command with `registry`, and exits with its code.
    /// An up-to-date `run` is answered from the state alone, before the parser (see `PreStart`); on
    /// the main actor, so that answer needs no thread of the concurrency runtime.
    @MainActor
    public static func main(registry: StepRegistry = .standard, arguments: [String]? = nil) async -> Never {
        if let code = PreStart.attempt(arguments ?? Array(CommandLine.arguments.dropFirst())) { exit(code) }
        await CommandContext.$registry.withValue(registry) {
            await MilepostCommand.main(arguments)
        }
        exit(0)
    }
}

enum CommandContext {
    /// The registry the running command resolves step names with.
    @TaskLocal static var registry = StepRegistry.standard
}
