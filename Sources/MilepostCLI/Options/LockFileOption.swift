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
        if let lockFile { return lockFile }
        guard let slash = manifestPath.lastIndex(of: "/") else { return "milepost.lock" }
        return manifestPath[...slash] + "milepost.lock"
    }
}
