public import Milepost
import Foundation
import MilepostSystem

/// The command line as a library: an application gets its own `milepost`-compatible binary with
/// its own steps in one line.
///
/// ```swift
/// // Sources/titi-migrate/main.swift
/// await MilepostCLI.main(registry: .standard.installing(TiTiSteps.self), store: TiTiStore.init(spec:))
/// ```
public enum MilepostCLI {
    /// Opens the store `--store` (or `MILEPOST_STORE`, or `.milepost`) names.
    public typealias StoreOpener = @Sendable (_ spec: String) throws -> any MilepostStore

    /// Parses the process arguments, runs the command with `registry`, and exits with its code.
    /// - parameters:
    ///   - registry: the steps manifests may name; `.standard` has the built-in `exec`, `StepRegistry()` none.
    ///   - store: opens the store for a `--store` value; nil for the stock behaviour (a `FileStore` directory).
    ///   - arguments: the command line without the program name; nil for the process arguments.
    ///
    /// An up-to-date `run` on the stock file store is answered from the state alone, before the
    /// parser (see `PreStart`); on the main actor, so that answer needs no thread of the concurrency runtime.
    ///
    /// First it undoes what a parent may have left that a run cannot work with (`ProcessStart`):
    /// closed descriptors 0–2 are opened on /dev/null, SIGPIPE is ignored, SIGCHLD is reset to its
    /// default and the signals Milepost waits for are unblocked.
    @MainActor
    public static func main(
        registry: StepRegistry = .standard, store: StoreOpener? = nil, arguments: [String]? = nil
    ) async -> Never {
        ProcessStart.prepare()
        if store == nil, let code = PreStart.attempt(arguments ?? Array(CommandLine.arguments.dropFirst())) { exit(code) }
        await CommandContext.$registry.withValue(registry) {
            await CommandContext.$openStore.withValue(store) {
                await MilepostCommand.main(arguments)
            }
        }
        exit(0)
    }
}

enum CommandContext {
    /// The registry the running command resolves step names with.
    @TaskLocal static var registry = StepRegistry.standard
    /// The application's store opener, if it has one.
    @TaskLocal static var openStore: MilepostCLI.StoreOpener?
}
