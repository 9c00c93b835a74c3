import ArgumentParser
import Milepost

/// What every command works with besides its arguments: the application's steps and how it opens a
/// store. Handed to each command explicitly by `MilepostCLI.main`.
struct CommandContext: Sendable {
    /// The registry manifests' step names resolve in.
    var registry: StepRegistry
    /// Opens the store a `--store` value names; only called through `openStore(_:)`.
    var opener: MilepostCLI.StoreOpener
    /// The URL schemes `opener` opens (`postgres`, `postgresql` for the stock binary); a value with any
    /// other scheme is refused, never opened as a directory (`StoreSpec`).
    var storeSchemes: [String] = []
    /// Exports `run`'s traces and metrics when the environment asks for it; nil when the binary has no exporter.
    var telemetry: TelemetryExporter? = nil

    /// The store `spec` names, after `StoreSpec.check`: a URL of a scheme the opener does not declare
    /// is a usage error (64), whatever the opener would have made of it.
    func openStore(_ spec: String) throws -> any MilepostStore {
        try StoreSpec.check(spec, schemes: storeSchemes)
        return try opener(spec)
    }
}

/// A subcommand that runs with the application's `CommandContext` rather than with globals.
protocol ContextualCommand: ParsableCommand {
    func run(in context: CommandContext) async throws
}

extension ContextualCommand {
    /// Runs the command after framing stderr as its `--log-format` says (`LoggingCommand`).
    func start(in context: CommandContext) async throws {
        (self as? any LoggingCommand)?.logging.frameStandardError()
        try await run(in: context)
    }
}
