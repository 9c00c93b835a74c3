import ArgumentParser
import Milepost

/// What every command works with besides its arguments: the application's steps and how it opens a
/// store. Handed to each command explicitly by `MilepostCLI.main`.
struct CommandContext: Sendable {
    /// The registry manifests' step names resolve in.
    var registry: StepRegistry
    /// Opens the store a `--store` value names.
    var openStore: MilepostCLI.StoreOpener
    /// Exports `run`'s traces and metrics when the environment asks for it; nil when the binary has no exporter.
    var telemetry: TelemetryExporter? = nil
}

/// A subcommand that runs with the application's `CommandContext` rather than with globals.
protocol ContextualCommand: ParsableCommand {
    func run(in context: CommandContext) async throws
}
