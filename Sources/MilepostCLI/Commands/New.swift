import ArgumentParser
import FoundationEssentials
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct New: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a step under a threshold, keeping the manifest's comments and layout.",
            discussion: """
                Appends `- NAME` to the steps of VERSION, creating the threshold (quoted, in version \
                order) when the manifest has none equal to it. With a command after `--`, appends a \
                long-form `exec` step instead: `name: exec`, `id: ID` and `with: {command: [...]}`, \
                each argument quoted for YAML. Only the new lines are written: comments, quoting and \
                layout stay as they are. The manifest must be valid before (else exit 65), and the \
                edited manifest is validated before it is written: a step that would leave it \
                invalid (exec without its command, an id already used under VERSION) is refused with \
                the reason, exit 64, and nothing is written. Flow lists (`2.1: [a, b]`) are edited by \
                hand (exit 65).

                Examples:
                  milepost new 2.8 removeEmptyDailys
                  milepost new 3.0 reindex -- psql -c 'REINDEX TABLE users'
                  milepost new 3.0 backfill --manifest deploy/milepost.yaml -- ./backfill
                """)

        @Argument(help: "The threshold: the step runs when an upgrade passes this version.", transform: Version.argument)
        var version: Version
        @Argument(help: "A registered step (milepost steps lists them); with a command after `--`, the id of a new exec step.")
        var name: String
        @Argument(parsing: .postTerminator, help: ArgumentHelp("The command of an exec step and its arguments, after `--`.", valueName: "command"))
        var command: [String] = []
        @OptionGroup var manifest: ManifestOptions

        func run(in context: CommandContext) async throws {
            // An unknown name would be written and then fail validation.
            let step = command.isEmpty ? name : "exec"
            guard context.registry[step] != nil else { throw unregistered(step, in: context.registry) }
            try await reportingFailures {
                let path = try manifest.path
                let loaded = try manifest.load(in: context)  // the file as it is must be valid first
                let text = String(decoding: loaded.source.bytes, as: UTF8.self)
                let edited: String
                do {
                    edited = command.isEmpty
                        ? try ManifestEditor.appending(step: name, threshold: version, thresholdText: version.text, to: text)
                        : try ManifestEditor.appending(execID: name, command: command, threshold: version, thresholdText: version.text, to: text)
                } catch let refusal as ManifestEditor.Refusal {
                    Terminal.err("milepost: cannot add the step to \(path.escapingControlCharacters()): \(refusal)")
                    throw ExitStatus.invalidManifest.exit
                }
                let bytes = Array(edited.utf8)
                // Nothing is written that would not validate: the edited text is checked first.
                var limits = ManifestLimits.default
                limits.maxDocumentBytes = try manifest.maxBytes
                do {
                    _ = try Manifest.parse(ManifestSource(path: path, bytes: bytes), registry: context.registry, limits: limits)
                } catch ManifestError.invalid(let diagnostics, _) {
                    refuse(diagnostics.filter { $0.severity == .error }, path: path)
                    throw ExitStatus.usage.exit
                }
                // Through a link to the file it names, keeping its mode and owner; atomically.
                do throws(FileCallError) {
                    try FileWriting.replace(path, with: bytes)
                } catch {
                    Terminal.err("milepost: could not write \(path.escapingControlCharacters()): \(error.reason)")
                    throw ExitStatus.cannotWrite.exit
                }
                let added = command.isEmpty ? name : "exec '\(name)'"
                Terminal.out("added \(added.escapingControlCharacters()) under \(version.text) in \(path.escapingControlCharacters())")
            }
        }

        /// Why `step` cannot be added: the registered name nearest to it, and for a name alone, how
        /// to add an `exec` step that runs a command instead.
        private func unregistered(_ step: String, in registry: StepRegistry) -> ValidationError {
            let near = NameSuggestion.closest(to: step, among: registry.all.map(\.name))
            var message = "'\(step.escapingControlCharacters())' is not a registered step (`milepost steps` lists them)"
                + (near.map { "; did you mean '\($0)'?" } ?? "")
            if command.isEmpty, registry["exec"] != nil {
                let flag = manifest.manifest.map { " --manifest \(CommandHint.quoted($0))" } ?? ""
                message += (near == nil ? "; to" : " Or, to") + " add a step that runs a command, give the command after --: "
                    + "`milepost new \(version.text) \(CommandHint.quoted(name))\(flag) -- COMMAND [ARGS...]`"
            }
            return ValidationError(message)
        }

        /// Says why the step is not added: what validation would report in the edited manifest
        /// (which is not written, so no line of it is quoted), and how to write exec's command.
        private func refuse(_ errors: [Diagnostic], path: String) {
            Terminal.err("milepost: error: not adding \(name.escapingControlCharacters()) under \(version.text): \(path.escapingControlCharacters()) would be invalid; nothing was written", isError: true)
            for error in errors {
                let notes = error.notes.map { "; \($0.message)" }.joined()
                Terminal.err("  \(error.message)\(notes)".escapingControlCharacters(), isError: true)
            }
            if command.isEmpty {
                Terminal.err("note: a step with required parameters needs its `with:`: write it by hand, or give exec its command: "
                    + "`milepost new \(version.text) ID -- COMMAND ARGS...`")
            }
        }
    }
}
