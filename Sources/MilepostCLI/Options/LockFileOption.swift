import ArgumentParser
import Foundation

/// `--lock-file PATH`: the lock file `lock` writes and `validate --locked` reads; by default
/// `milepost.lock` beside the manifest.
struct LockFileOption: ParsableArguments {
    @Option(name: .customLong("lock-file"), help: ArgumentHelp(
        "The lock file (default: milepost.lock beside the manifest).", valueName: "path"))
    var lockFile: String?

    /// The lock file for the manifest at `manifestPath`.
    func path(manifest manifestPath: String) -> String {
        if let lockFile { return lockFile }
        let directory = (manifestPath as NSString).deletingLastPathComponent
        return directory.isEmpty ? "milepost.lock" : directory + "/milepost.lock"
    }
}
