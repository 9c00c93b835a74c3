import ArgumentParser
import Foundation
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct New: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a step under a threshold, keeping the manifest's comments and layout.",
            discussion: """
                Appends `- NAME` to the steps of VERSION, creating the threshold (quoted, in version \
                order) when the manifest has none equal to it. Only the new lines are written: \
                comments, quoting and layout stay as they are. The manifest must be valid before; \
                after the edit it is validated again, and a step whose parameters are required \
                (exec's `command`) is reported until its `with:` is filled in (exit 65). Flow lists \
                (`2.1: [a, b]`) are edited by hand.

                Examples:
                  milepost new 2.8 removeEmptyDailys
                  milepost new 3.0 exec --manifest deploy/milepost.yaml   # then fill in its with:
                """)

        @Argument(help: "The threshold: the step runs when an upgrade passes this version.")
        var version: Version
        @Argument(help: "A registered step (milepost steps lists them).")
        var name: String
        @OptionGroup var manifest: ManifestOptions

        func run(in context: CommandContext) async throws {
            // An unknown name would be written and then fail validation, leaving a broken manifest.
            guard context.registry[name] != nil else {
                throw ValidationError("'\(name.escapingControlCharacters())' is not a registered step (`milepost steps` lists them)")
            }
            try await reportingFailures {
                let path = try manifest.path
                let loaded = try manifest.load(in: context)  // the file as it is must be valid first
                let text = String(decoding: loaded.source.bytes, as: UTF8.self)
                let edited: String
                do {
                    edited = try ManifestEditor.appending(step: name, threshold: version, thresholdText: version.text, to: text)
                } catch let refusal as ManifestEditor.Refusal {
                    Terminal.err("milepost: cannot add the step to \(path.escapingControlCharacters()): \(refusal)")
                    throw ExitStatus.invalidManifest.exit
                }
                let bytes = Array(edited.utf8)
                // Through a link to the file it names, keeping its mode and owner; atomically.
                do throws(FileCallError) {
                    try FileWriting.replace(path, with: bytes)
                } catch {
                    Terminal.err("milepost: could not write \(path.escapingControlCharacters()): \(error.reason)")
                    throw ExitStatus.cannotWrite.exit
                }
                Terminal.out("added \(name.escapingControlCharacters()) under \(version.text) in \(path.escapingControlCharacters())")
                // A step with required parameters needs its `with:` filled in: validation says what is missing.
                _ = try Manifest.parse(ManifestSource(path: path, bytes: bytes), registry: context.registry)
            }
        }
    }
}
