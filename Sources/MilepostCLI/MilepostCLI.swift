public import Milepost
import ArgumentParser
import FoundationEssentials
import Glibc
import MilepostSystem

/// The command line as a library: an application gets its own `milepost`-compatible binary with
/// its own steps in one line.
///
/// ```swift
/// // Sources/titi-migrate/main.swift
/// MilepostCLI.start(registry: .standard.installing(TiTiSteps.self, using: .ofCommandLine()), store: TiTiStore.init(spec:))
/// ```
/// (`start` checks first that the system grants the threads a run needs; `main` does not.)
public enum MilepostCLI {
    /// Opens the store `--store` (or `MILEPOST_STORE`, or `.milepost`) names. It may be called more than
    /// once per process (the pre-start fast path opens the store before the parser runs), so it should
    /// only describe the store, never connect or write. The spec is read from the command line or
    /// the environment byte for byte: a byte that is not UTF-8 arrives as one scalar of
    /// U+10FF80…U+10FFFF, which `fileStore` turns back into that byte.
    public typealias StoreOpener = @Sendable (_ spec: String) throws -> any MilepostStore

    /// The stock opener: a `FileStore` in the directory the spec names, whatever its bytes (`main`
    /// refuses a URL before any opener sees it, unless the scheme is one of its `storeSchemes`).
    public static let fileStore: StoreOpener = { FileStore(path: PathText.filePath($0)) }

    /// Parses the process arguments, runs the command with `registry`, and exits with its code.
    /// - parameters:
    ///   - registry: the steps manifests may name; `.standard` has the built-in `exec`, `StepRegistry()` none.
    ///     Evaluated once, unless `PreStart` answers an up-to-date `run` without it.
    ///   - store: opens the store for a `--store` value; `fileStore` by default.
    ///   - storeSchemes: the URL schemes `store` opens (lowercase, without `://`). A `--store` value
    ///     that starts with any other scheme (`mongodb://…`, `x:`) is refused with exit 64 before `store`
    ///     is called; every other value is a directory path. Empty (the default): directories only.
    ///   - arguments: the command line without the program name; nil for the process arguments.
    ///   - telemetry: exports `run`'s traces and metrics (the stock binary passes OpenTelemetry's,
    ///     `MilepostOTel`); nil exports nothing, though `--metrics-file` still works.
    ///
    /// An up-to-date `run` on a file store is answered from the state alone, before the parser (see
    /// `PreStart`); on the main actor, so that answer needs no thread of the concurrency runtime.
    ///
    /// First it undoes what a parent may have left that a run cannot work with (`ProcessStart`):
    /// closed descriptors 0–2 are opened on /dev/null, SIGPIPE is ignored, SIGCHLD is reset to its
    /// default and the signals Milepost waits for are unblocked.
    @MainActor
    public static func main(
        registry: @autoclosure () -> StepRegistry = .standard, store: @escaping StoreOpener = fileStore, storeSchemes: [String] = [],
        arguments: [String]? = nil, telemetry: TelemetryExporter? = nil
    ) async -> Never {
        let (arguments, context) = prepare(
            registry: registry, store: store, storeSchemes: storeSchemes, arguments: arguments, telemetry: telemetry)
        await run(arguments, in: context)
    }

    /// Repairs the process state (`ProcessStart`) and answers an up-to-date `run` at once
    /// (`PreStart`, which exits); else returns the arguments and the context to run them in.
    static func prepare(
        registry: () -> StepRegistry, store: @escaping StoreOpener, storeSchemes: [String], arguments: [String]?,
        telemetry: TelemetryExporter?
    ) -> (arguments: [String], context: CommandContext) {
        ProcessStart.prepare()
        let arguments = arguments ?? PathText.arguments()
        let stores = StoreAccess(opener: store, schemes: storeSchemes)
        if let code = PreStart.attempt(arguments, stores: stores, telemetry: telemetry) { exit(code) }
        // Built only now: the fast path does not parse the manifest.
        return (arguments, CommandContext(registry: registry(), stores: stores, telemetry: telemetry))
    }

    /// Parses `arguments`, runs the command in `context`, and exits with its code.
    @MainActor
    static func run(_ arguments: [String], in context: CommandContext) async -> Never {
        if RootHelp.isRequested(arguments) {
            Terminal.out(RootHelp.text)
            exit(0)
        }
        var parsed: (any ParsableCommand.Type)?
        do {
            try CommandUsage.checkCommand(in: arguments)
            var command = try await MilepostCommand.asyncParseAsRoot(arguments)
            parsed = type(of: command)
            if let contextual = command as? any ContextualCommand {
                try await contextual.start(in: context)
            } else {
                try command.run()
            }
        } catch {
            // Refused by the command after parsing: its own usage, not the root's.
            if let refusal = error as? ValidationError, let parsed { CommandUsage.refuse(refusal, by: parsed) }
            MilepostCommand.exit(withError: error)
        }
        exit(0)
    }
}
