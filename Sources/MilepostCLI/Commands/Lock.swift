import ArgumentParser
import FoundationEssentials
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct Lock: ContextualCommand, LoggingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write milepost.lock: each step's id and fingerprint, for `validate --locked` in CI.",
            discussion: """
                One line per step in run order, ID FINGERPRINT (the manifest entry and the step's \
                declared revision), so a pull request that edits or removes a released step shows in \
                the lock file's diff and fails `milepost validate --locked` (exit 65). Commit it with \
                the manifest; run it again when you add a step. The manifest must be valid (else 65, \
                nothing written).

                Examples:
                  milepost lock
                  milepost lock --manifest deploy/milepost.yaml   # writes deploy/milepost.lock
                """)

        @OptionGroup var manifest: ManifestOptions
        @OptionGroup var lock: LockFileOption
        @OptionGroup var logging: LoggingOptions

        func run(in context: CommandContext) async throws {
            try await reportingFailures {
                let loaded = try manifest.load(in: context)
                let path = lock.path(manifest: loaded.source.path)
                do throws(FileCallError) {
                    try FileWriting.write(path, Array(ManifestLock.text(of: loaded).utf8))
                } catch {
                    Terminal.err("milepost: could not write \(path.escapingControlCharacters()): \(error.reason)")
                    throw ExitStatus.cannotWrite.exit
                }
                Terminal.out("wrote \(path.escapingControlCharacters()): \(counted(loaded.steps.count, "step"))")
            }
        }
    }
}
