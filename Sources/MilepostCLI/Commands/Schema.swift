import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Schema: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the JSON Schema of a manifest for this binary's steps.",
            discussion: """
                A JSON Schema (draft 2020-12) for editors and CI: the manifest's keys, version \
                thresholds, both step forms, the steps this binary registers and each one's `with:` \
                parameters. Save it next to the manifest and point the YAML language server at it \
                (docs/editing.md). `validate` still checks what a schema cannot: thresholds equal as \
                versions, duplicate step ids, checks across a step's parameters.

                Examples:
                  milepost schema > milepost.schema.json
                  titi-migrate schema > milepost.schema.json
                """)

        func run(in context: CommandContext) async throws {
            Terminal.out(ManifestSchema(registry: context.registry).jsonText)
        }
    }
}
