import ArgumentParser
import FoundationEssentials

/// `--lock-file PATH`: the lock file `lock` writes and `validate --locked` reads; by default
/// `milepost.lock` beside the manifest.
struct LockFileOption: ParsableArguments {
    @Option(name: .customLong("lock-file"), help: ArgumentHelp(
        "The lock file (default: milepost.lock beside the manifest).", valueName: "path"))
    var lockFile: String?

    /// The lock file for the manifest at `manifestPath`.
    func path(manifest manifestPath: String) -> String {
        lockFile ?? Self.defaultPath(manifest: manifestPath)
    }

    /// `milepost.lock` beside the manifest at `manifestPath`.
    static func defaultPath(manifest manifestPath: String) -> String {
        guard let slash = manifestPath.lastIndex(of: "/") else { return "milepost.lock" }
        return manifestPath[...slash] + "milepost.lock"
    }
}
