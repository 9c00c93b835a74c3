import ArgumentParser
import Foundation
import Milepost
import MilepostYAML

/// `--manifest` (env `MILEPOST_MANIFEST`, default `milepost.yaml`) and the size cap.
struct ManifestOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The manifest to read (env MILEPOST_MANIFEST).", valueName: "path"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp(
        "The largest manifest accepted, in bytes.", valueName: "bytes"))
    var maxManifestSize: Int = YAMLLimits.default.maxDocumentBytes

    var path: String {
        manifest ?? ProcessInfo.processInfo.environment["MILEPOST_MANIFEST"] ?? "milepost.yaml"
    }

    /// True when the user named a manifest, or the default one exists.
    var isAvailable: Bool {
        manifest != nil || ProcessInfo.processInfo.environment["MILEPOST_MANIFEST"] != nil
            || FileManager.default.fileExists(atPath: path)
    }

    func load(in context: CommandContext) throws -> Manifest {
        var limits = YAMLLimits.default
        limits.maxDocumentBytes = maxManifestSize
        return try Manifest.load(path: path, registry: context.registry, limits: limits)
    }
}
