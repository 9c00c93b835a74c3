import ArgumentParser
import FoundationEssentials
import Milepost
import MilepostSystem

/// `--store` (env `MILEPOST_STORE`; default `.milepost` beside the manifest): a directory, or a URL of
/// a scheme the binary's store opener declares (`StoreSpec`).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong(OptionNames.store), help: ArgumentHelp(
        "The store: a directory, postgres://… or sqlite:PATH (env MILEPOST_STORE; default .milepost beside the manifest).",
        valueName: "store"))
    var store: String?

    /// Refuses an empty `--store` or `MILEPOST_STORE` while parsing, with the command's usage.
    func validate() throws { _ = try Setting.value(flag: store, named: OptionNames.store, environment: Setting.variable(OptionNames.store)) }

    /// Opens the store; `manifest` is the manifest the user named (`--manifest` or `MILEPOST_MANIFEST`),
    /// nil for the default `milepost.yaml`.
    func open(in context: CommandContext, manifest: String?) throws -> any MilepostStore {
        try context.openStore(Self.spec(store, manifest: manifest))
    }

    /// Opens the store for a command that reads no manifest: the default is beside the manifest
    /// `MILEPOST_MANIFEST` names, else `.milepost`.
    func open(in context: CommandContext) throws -> any MilepostStore {
        try open(in: context, manifest: ManifestOptions.named(nil))
    }

    /// The directory the store defaulted to in earlier releases: `.milepost` in the working directory.
    static let workingDirectoryStore = ".milepost"

    /// The store named by the flag, else the environment, else `.milepost` beside the manifest
    /// (`defaultSpec`), so that it does not depend on the working directory.
    /// - throws: `ValidationError` when the flag or `MILEPOST_STORE` is empty, or when the default is
    ///   used, has no store yet, and `./.milepost` in the working directory has one (nothing is
    ///   migrated silently: the message says how to keep using it).
    static func spec(_ flag: String?, manifest: String?) throws -> String {
        if let named = try Setting.value(flag: flag, named: OptionNames.store, environment: Setting.variable(OptionNames.store)) { return named }
        let beside = defaultSpec(manifest: manifest)
        if beside != workingDirectoryStore, !FileCalls.exists(beside), FileCalls.exists(workingDirectoryStore) {
            throw ValidationError("""
                the default store is .milepost beside the manifest (\(beside)), which does not exist yet, \
                but the working directory has a store in .milepost (the default of earlier releases): \
                to keep using it, pass --store .milepost (or set MILEPOST_STORE); to move it beside the \
                manifest, `mv .milepost \(CommandHint.quoted(beside))`
                """)
        }
        return beside
    }

    /// `.milepost` in the directory of `manifest` (`milepost.yaml`, so `.milepost`, when nil).
    static func defaultSpec(manifest: String?) -> String {
        guard let manifest, let slash = manifest.lastIndex(of: "/") else { return workingDirectoryStore }
        return manifest[...slash] + workingDirectoryStore
    }
}
