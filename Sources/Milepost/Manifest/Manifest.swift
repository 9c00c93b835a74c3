public import MilepostYAML
import MilepostSystem
public import SystemPackage

/// A manifest read, validated and bound to a registry: every step resolved and its parameters
/// validated (decoded, then decoded again when the step runs: `ManifestStep.parameters()`).
public struct Manifest: Sendable {
    /// The file it was read from, and its bytes (for diagnostics).
    public let source: ManifestSource
    /// The optional `app:` label.
    public let app: String?
    /// The version assumed when nothing is stored (`baseline:`); `Version.zero` when absent.
    public let baseline: Version
    /// Every step in run order: ascending threshold, then listed order.
    public let steps: [ManifestStep]
    /// What a run does with late steps (`late:`; default `.warn`); a step's own `late:` wins.
    public let late: LatePolicy
    /// `upgrade_from:` and `stops:`: which stored versions this manifest may upgrade.
    public let upgradePath: UpgradePath
    /// `hooks:`: the steps that run around a run with steps to run (`ManifestHooks`).
    public internal(set) var hooks = ManifestHooks()
    /// Findings that do not stop the manifest from being used.
    public let warnings: [Diagnostic]
    /// The digest of what its plans depend on besides the state: its bytes, the env file its
    /// variables read (`ManifestVariables.envFile`) and its steps' definition files.
    public internal(set) var digest = ManifestDigest(digest: "", files: [])
    /// The declared variables (`variables:`, `secrets:`, `${secret:…}`) its steps and hooks use, once
    /// each, in order of first use: what it substitutes.
    public internal(set) var substitutedVariables: [String] = []
    /// Each other `${…}` of its strings, once each: kept as written for the step's shell.
    public internal(set) var shellReferences: [String] = []

    /// The directory relative paths in the manifest are resolved against.
    public var directory: String { source.directory }

    /// Reads and validates the manifest at `path`, whatever its bytes: a name that is not UTF-8 is
    /// opened as it is, and shown with each such byte as `\xFF` (`ManifestSource.path` keeps it as
    /// one scalar of U+10FF80…U+10FFFF, which the file calls turn back into the byte). `${…}` in
    /// `with:` strings are replaced by `variables` (nil: only their syntax is checked and the text is
    /// kept as written; see `ManifestVariables`).
    /// - throws: `ManifestError.unreadable` (missing, unreadable) or `.invalid` with every problem found.
    public static func load(
        path: FilePath, registry: StepRegistry, limits: ManifestLimits = .default, variables: ManifestVariables? = nil
    ) throws(ManifestError) -> Manifest {
        try load(text: PathText.string(path), registry: registry, limits: limits, variables: variables)
    }

    /// Reads and validates the manifest at `path`, a Unicode path.
    /// - throws: `ManifestError.unreadable` (missing, unreadable) or `.invalid` with every problem found.
    public static func load(
        path: String, registry: StepRegistry, limits: ManifestLimits = .default, variables: ManifestVariables? = nil
    ) throws(ManifestError) -> Manifest {
        try load(path: FilePath(path), registry: registry, limits: limits, variables: variables)
    }

    private static func load(
        text path: String, registry: StepRegistry, limits: ManifestLimits, variables: ManifestVariables?
    ) throws(ManifestError) -> Manifest {
        return try parse(ManifestSource.read(path: path, maxBytes: limits.maxDocumentBytes), registry: registry, limits: limits, variables: variables)
    }

    /// Validates manifest text already in memory (the entry point `load` and the fuzzer share).
    public static func parse(
        _ source: ManifestSource, registry: StepRegistry, limits: ManifestLimits = .default,
        variables: ManifestVariables? = nil
    ) throws(ManifestError) -> Manifest {
        let document: YAMLDocument
        do {
            document = try YAMLDocument.parse(source.bytes, limits: limits)
        } catch {
            throw .invalid(error.errors.map { Diagnostic($0, file: source.path) }, source: source)
        }
        var decoder = ManifestDecoder(file: source.path, registry: registry, variables: variables)
        let contents = decoder.decode(document.root)
        guard let contents, !decoder.diagnostics.contains(where: { $0.severity == .error }) else {
            throw .invalid(decoder.diagnostics, source: source)
        }
        var manifest = Manifest(
            source: source, app: contents.app, baseline: contents.baseline ?? .zero,
            steps: contents.steps, late: contents.late ?? .warn,
            upgradePath: UpgradePath(upgradeFrom: contents.upgradeFrom, stops: contents.stops),
            warnings: decoder.diagnostics)
        manifest.hooks = contents.hooks
        var files: [DefinitionFile] = []
        var named: Set<String> = []
        for step in manifest.steps + ManifestHooks.Phase.allCases.flatMap({ contents.hooks[$0] }) {
            for file in step.definitionFiles where named.insert(file.name).inserted { files.append(file) }
        }
        manifest.digest = .of(manifest: source.bytes, envFile: variables?.envFile?.bytes, files: files)
        let uses = decoder.uses.uses(since: 0)
        decoder.uses.stopRecording()
        var seen: Set<String> = []
        manifest.substitutedVariables = uses.compactMap(\.name).filter { seen.insert("v" + $0).inserted }
        manifest.shellReferences = uses.filter { $0.outcome == .shell }.map(\.written).filter { seen.insert("s" + $0).inserted }
        return manifest
    }

    /// Refuses to run `steps` while a variable one of them uses is unset, with the hooks around them
    /// when `hooks` is true and there are steps: a variable only a step that does not run uses (one
    /// that completed long ago) is not needed.
    /// - throws: `ManifestError.invalid` with an error at each unset use.
    public func requireVariables(of steps: [ManifestStep], hooks: Bool = true) throws(ManifestError) {
        let hookSteps = hooks && !steps.isEmpty ? ManifestHooks.Phase.allCases.flatMap { self.hooks[$0] } : []
        let unset = (steps + hookSteps).flatMap(\.unsetVariables)
        if !unset.isEmpty { throw .invalid(unset, source: source) }
    }

    /// An error at each unset use of a declared variable in any step or hook (`validate`, `plan` and
    /// `status` given values report them all).
    public var unsetVariables: [Diagnostic] {
        (steps + ManifestHooks.Phase.allCases.flatMap { hooks[$0] }).flatMap(\.unsetVariables)
    }

    /// The late-step policy of `step`: its own `late:`, else `.run` for a labelled step (one that
    /// an earlier run's `--labels` left out runs when a later run includes it), else the manifest's.
    public func latePolicy(for step: ManifestStep) -> LatePolicy { step.late ?? (step.labels.isEmpty ? late : .run) }

    /// The step with `id`, if the manifest has it.
    public func step(id: String) -> ManifestStep? {
        steps.first { $0.id == id }
    }
}
