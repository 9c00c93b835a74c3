import ArgumentParser
import Milepost

/// What every command works with besides its arguments: the application's steps and how it opens a
/// store. Handed to each command explicitly by `MilepostCLI.main`.
struct CommandContext: Sendable {
    /// The registry manifests' step names resolve in.
    var registry: StepRegistry
    /// How `--store` values are opened.
    var stores: StoreAccess
    /// Exports `run`'s traces and metrics when the environment asks for it; nil when the binary has no exporter.
    var telemetry: TelemetryExporter? = nil

    /// `stores.openStore(spec)`.
    func openStore(_ spec: String) throws -> any MilepostStore {
        try stores.openStore(spec)
    }
}

/// A subcommand that runs with the application's `CommandContext` rather than with globals.
protocol ContextualCommand: ParsableCommand {
    func run(in context: CommandContext) async throws
}

extension ContextualCommand {
    /// Runs the command after framing stderr as its `--log-format` says (`LoggingCommand`) and
    /// warning about each `MILEPOST_*` variable milepost does not read (`UnknownVariables`).
    func start(in context: CommandContext) async throws {
        (self as? any LoggingCommand)?.logging.frameStandardError()
        for warning in UnknownVariables.warnings() { Terminal.err(warning.escapingControlCharacters()) }
        try await run(in: context)
    }
}
