import ArgumentParser
import FoundationEssentials
import Milepost
import MilepostSystem

/// `--manifest` (env `MILEPOST_MANIFEST`, default `milepost.yaml`) and the size cap (env
/// `MILEPOST_MAX_MANIFEST_SIZE`).
struct ManifestOptions: ParsableArguments {
    @Option(name: .customLong(OptionNames.manifest), help: ArgumentHelp(
        "The manifest to read (env MILEPOST_MANIFEST).", valueName: "path"))
    var manifest: String?

    @Option(name: .customLong(OptionNames.maxManifestSize), help: ArgumentHelp(
        "The largest manifest accepted, in bytes "
            + "\(Setting.help(OptionNames.maxManifestSize, default: "\(ManifestLimits.default.maxDocumentBytes)")).", valueName: "bytes"))
    var maxManifestSize: ByteCountArgument?

    /// Refuses an empty `--manifest` or `MILEPOST_MANIFEST`, and an empty or bad
    /// `MILEPOST_MAX_MANIFEST_SIZE`, while parsing, with the command's usage.
    func validate() throws {
        _ = try named
        _ = try maxBytes
    }

    /// The size cap: the flag's, else `MILEPOST_MAX_MANIFEST_SIZE`'s, else the default.
    var maxBytes: Int {
        get throws { try Self.maxBytes(maxManifestSize) }
    }

    /// The size cap `flag` or else `MILEPOST_MAX_MANIFEST_SIZE` gives, else the default.
    static func maxBytes(_ flag: ByteCountArgument?) throws -> Int {
        try Setting.value(flag, named: OptionNames.maxManifestSize)?.bytes ?? ManifestLimits.default.maxDocumentBytes
    }

    /// The manifest the user named (flag, else `MILEPOST_MANIFEST`); nil when neither names one.
    /// - throws: `ValidationError` when the value given is empty.
    var named: String? {
        get throws { try Self.named(manifest) }
    }

    /// The manifest `flag` or else `MILEPOST_MANIFEST` names; nil when neither does.
    /// - throws: `ValidationError` when the value given is empty.
    static func named(_ flag: String?) throws -> String? {
        try Setting.value(flag: flag, named: OptionNames.manifest, environment: Setting.variable(OptionNames.manifest))
    }

    /// The manifest a command reads when none is named.
    static let defaultPath = "milepost.yaml"

    /// The manifest named, else `milepost.yaml`.
    var path: String {
        get throws { try named ?? Self.defaultPath }
    }

    /// True when the user named a manifest, or the default one exists.
    var isAvailable: Bool {
        get throws { try named != nil || FileCalls.exists(path) }
    }

    /// The files the manifest's digest is read from (`RunOptions.manifestInputs`): the manifest and
    /// the env file `variables` names.
    func inputs(_ variables: VariableOptions) throws -> ManifestInputs {
        ManifestInputs(path: try path, envFile: try variables.file, maxManifestBytes: try maxBytes)
    }

    /// Loads the manifest, substituting `variables` into `with:` strings (nil: only checks their syntax).
    /// `requiringAll`: an unset variable is an error wherever it is used (`plan`, `status`); without
    /// it, only for the steps a run or revert runs (`Manifest.requireVariables(of:)`, by the runner).
    func load(in context: CommandContext, variables: ManifestVariables? = nil, requiringAll: Bool = false) throws -> Manifest {
        var limits = ManifestLimits.default
        limits.maxDocumentBytes = try maxBytes
        let manifest = try Manifest.load(
            path: PathText.filePath(try path), registry: context.registry, limits: limits, variables: variables)
        if requiringAll, !manifest.unsetVariables.isEmpty {
            throw ManifestError.invalid(manifest.unsetVariables, source: manifest.source)
        }
        return manifest
    }
}
