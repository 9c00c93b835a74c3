import ArgumentParser
import FoundationEssentials
import Milepost
import MilepostSystem

extension MilepostCommand {
    struct Init: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a commented starter manifest. Never overwrites a file.",
            discussion: """
                Writes milepost.yaml (or --manifest) with one example step and the \
                `# yaml-language-server: $schema=milepost.schema.json` line that gives editors \
                completion (docs/editing.md), then prints the next three commands. An existing file \
                is left alone: exit 64.

                Examples:
                  milepost init
                  milepost init --manifest deploy/milepost.yaml
                """)

        @OptionGroup var manifest: ManifestOptions

        static let schemaFile = "milepost.schema.json"

        func run(in context: CommandContext) async throws {
            let path = try manifest.path
            let bytes = Array(ManifestTemplate.starter(schemaFile: Self.schemaFile).utf8)
            // Created here whole or not at all, even when another process writes the same name now.
            do throws(FileCallError) {
                try FileWriting.create(path, bytes)
            } catch where error.errno == .fileExists && error.call == "open" {
                Terminal.err("milepost: not writing \(path.escapingControlCharacters()): "
                    + "it exists already; edit it, or name another with --manifest")
                throw ExitStatus.usage.exit
            } catch {
                Terminal.err("milepost: could not write \(path.escapingControlCharacters()): \(error.reason)")
                throw ExitStatus.cannotWrite.exit
            }
            let flag = try manifest.named.map { " --manifest \($0)" } ?? ""
            let schemaPath = path.lastIndex(of: "/").map { path[...$0] + Self.schemaFile } ?? Self.schemaFile
            let next = [
                ("milepost schema > \(schemaPath)", "completion and checks in your editor"),
                ("milepost validate\(flag)", "check the manifest"),
                ("milepost plan\(flag) --from 0 --to 0.1", "what an upgrade to 0.1 would run"),
            ]
            let width = next.map(\.0.count).max() ?? 0
            Terminal.out("wrote \(path.escapingControlCharacters()). Next:\n"
                + next.map { "  \($0.0.padding(width))  # \($0.1)" }.joined(separator: "\n"))
        }
    }
}
