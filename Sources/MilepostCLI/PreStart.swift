import Logging
import Milepost
import MilepostSystem

/// The pre-start fast path of `milepost run`, taken before ArgumentParser is involved.
///
/// In a statically linked binary, ArgumentParser's reflection (dynamic casts that scan the whole
/// conformance table) costs most of a no-op run (docs/performance.md). When the arguments are a
/// plain `run` with long options this understands, the store is already at the target with
/// nothing interrupted, and the manifest's files have the digest the state was last planned with
/// (`Runner.upToDate(_:at:manifest:)`: the manifest's bytes, the env file's and its steps'
/// definition files', read without parsing anything), the process exits 0 with `run`'s own output.
/// Anything else — another command, an unknown or repeated option, a bad value, a store that is
/// not up to date, any error — returns nil and the full parser runs, so behaviour and messages
/// stay exactly those of `MilepostCommand.Run`. Only stores with a synchronous read of their
/// state's head (`MilepostStore.stateHeadReader`: every store of Milepost's, the server stores in one
/// connection and one query) take it; with an application's store that has none the full path runs.
enum PreStart {
    /// Options whose value is checked here with the parser's own types; nil means "any value".
    ///
    /// These tables and `OptionValues` are arrays searched in place, not sets and dictionaries: the
    /// first `Set` or `Dictionary` of `String`s makes the runtime check `String: Hashable` by
    /// scanning every conformance record of the static binary (≈ 0.2 M instructions, a tenth of
    /// the no-op; docs/performance.md), and a dozen names need no hashing.
    static let options: [(name: String, check: (@Sendable (String) -> Bool)?)] = [
        (OptionNames.store, nil),
        (OptionNames.manifest, nil),
        (OptionNames.envFile, nil),
        (OptionNames.to, { Version(argument: $0) != nil }),
        (OptionNames.maxManifestSize, { ByteCountArgument(argument: $0) != nil }),
        (OptionNames.lockTimeout, { DurationText.parse($0) != nil }),
        (OptionNames.terminationGrace, { DurationText.parse($0) != nil }),
        (OptionNames.progressInterval, { DurationText.parse($0) != nil }),
        (OptionNames.format, { ReportFormat(argument: $0) != nil }),
        (OptionNames.logLevel, { Logger.Level(argument: $0) != nil }),
        (OptionNames.logFormat, { LogFormat(argument: $0) != nil }),
        // Only the pre-start phase: a contract or background run may have steps to run at the stored version.
        (OptionNames.phase, { StepPhase(argument: $0) == .preStart }),
        // An up-to-date store fits any deadline.
        (OptionNames.deadline, { DurationText.parse($0) != nil }),
    ]
    /// Flags that change nothing when the store is up to date (`--existing-store` refuses only a store with no state).
    static let flags = [OptionNames.allowDowngrade, OptionNames.existingStore]
    /// `run`'s options the fast path never takes: with them, a run may do more than say "up to date"
    /// (`--metrics-file` is written by the full path, which records the run's metrics; `--labels`, or
    /// `MILEPOST_LABELS`, may bring in steps an earlier run left out below the stored version;
    /// `--host-store` is a second store to look at; `--plan` is a file to check, whose target may be
    /// the run's; `--history` only matters to a run with steps to run, and may be repeated).
    static let declined = [
        OptionNames.dryRun, OptionNames.metricsFile, OptionNames.labels, OptionNames.hostStore, OptionNames.plan, OptionNames.history,
    ]

    /// Every option of `run`, each once: the ones taken, the flags and the ones declined.
    static var names: [String] { options.map(\.name) + flags + declined }

    /// Whether `name` is an option the fast path takes and `value` one it takes.
    private static func accepts(_ name: String, _ value: String) -> Bool {
        guard let option = options.first(where: { $0.name == name }) else { return false }
        return option.check?(value) ?? true
    }

    /// Options' values by name, each name at most once.
    struct OptionValues {
        private var values: [(name: String, value: String)] = []

        subscript(name: String) -> String? {
            values.first { $0.name == name }?.value
        }

        /// Adds `value` for `name`; false, adding nothing, when `name` has a value already.
        mutating func add(_ value: String, for name: String) -> Bool {
            guard self[name] == nil else { return false }
            values.append((name, value))
            return true
        }
    }

    /// The exit code of an up-to-date `run`, after printing its outcome; nil to parse normally.
    /// Synchronous on purpose: called on the main thread, it answers before any thread starts.
    static func attempt(_ arguments: [String], stores: StoreAccess, telemetry: TelemetryExporter?) -> Int32? {
        // An exporter the environment asks for gets the run's span and metrics from the full path.
        // A `MILEPOST_*` variable milepost does not read (a misspelt setting) is warned about by the full path.
        guard let flags = parse(arguments), telemetry?.isRequested() != true,
              let (values, variablesSet) = withEnvironment(flags), UnknownVariables.noneSet(besides: variablesSet)
        else { return nil }
        do {
            // The manifest is not parsed here (only its digest taken), but an empty --manifest or
            // MILEPOST_MANIFEST is the same usage error (64) it is for the parser.
            let manifest = try ManifestOptions.named(values[OptionNames.manifest])
            let inputs = ManifestInputs(
                path: manifest ?? "milepost.yaml", envFile: values[OptionNames.envFile],
                maxManifestBytes: values[OptionNames.maxManifestSize].flatMap(ByteCountArgument.init(argument:))?.bytes
                    ?? ManifestLimits.default.maxDocumentBytes)
            guard let target = try TargetOption.resolve(values[OptionNames.to].flatMap(Version.init)),
                  case let store = try stores.openStore(StoreOptions.spec(values[OptionNames.store], manifest: manifest)),
                  let head = try store.stateHeadReader?.read(),
                  let report = Runner(store: store).upToDate(
                      head, at: target, manifest: head.plannedWith.flatMap { inputs.digest(definitionFiles: $0.files) })
            else { return nil }
            if values[OptionNames.logFormat].flatMap(LogFormat.init(argument:)) == .json { JSONLogHandler.frameStandardError() }
            let format = values[OptionNames.format].flatMap(ReportFormat.init(argument:)) ?? .text
            try MilepostCommand.Run.show(
                report, format: format, exitCode: ExitStatus.ok.rawValue, signal: nil,
                progress: RunProgressPrinter(colored: Terminal.stderrIsTTY, interactive: Terminal.stderrIsTTY),
                hint: CommandHint(store: flags[OptionNames.store], manifest: flags[OptionNames.manifest]),
                file: manifest ?? "milepost.yaml")
            return 0
        } catch {
            return nil
        }
    }

    /// `values` with, for each option not given as a flag, its environment variable's value
    /// (`Setting.variable`; a boolean flag that is on has the value ""), and how many of the
    /// options' variables are set (those of options given as flags too). Nil — the full path — when
    /// a variable the flags leave in effect is empty or bad (the parser names it) or sets an option
    /// the fast path declines.
    private static func withEnvironment(_ flags: OptionValues) -> (values: OptionValues, variablesSet: Int)? {
        var values = flags
        var variablesSet = 0
        for name in names {
            guard let text = ProcessEnvironment.value(Setting.variable(name)) else { continue }
            variablesSet += 1
            guard values[name] == nil else { continue }  // the flag wins
            guard !text.isEmpty else { return nil }
            if Self.flags.contains(name) || name == OptionNames.dryRun {
                guard let on = Setting.boolean(text) else { return nil }
                guard on else { continue }
                _ = values.add("", for: name)
            } else {
                guard accepts(name, text) else { return nil }  // also --metrics-file, --labels
                _ = values.add(text, for: name)
            }
            if declined.contains(name) { return nil }
        }
        return (values, variablesSet)
    }

    /// `run` followed by known long options (`--name value`, `--name=value`, or a flag), each at most once.
    private static func parse(_ arguments: [String]) -> OptionValues? {
        guard arguments.first == "run" else { return nil }
        var values = OptionValues()
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else { return nil }
            let option = argument.dropFirst(2)
            let name: String
            let value: String
            if let equals = option.firstIndex(of: "=") {
                (name, value) = (String(option[..<equals]), String(option[option.index(after: equals)...]))
                guard !flags.contains(name) else { return nil }
            } else if flags.contains(String(option)) {
                (name, value) = (String(option), "")
            } else {
                guard let next = rest.popFirst(), !next.hasPrefix("-") else { return nil }
                (name, value) = (String(option), next)
            }
            let known = flags.contains(name) || accepts(name, value)
            guard known, values.add(value, for: name) else { return nil }
        }
        return values
    }
}
