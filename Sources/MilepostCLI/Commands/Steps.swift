import ArgumentParser
import Milepost

extension MilepostCommand {
    struct Steps: ContextualCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the steps this binary knows, with their parameters.",
            discussion: """
                Examples:
                  milepost steps
                  milepost steps --format json
                """)

        @Option(help: "How to print the result.") var format: OutputFormat = .text

        func run(in context: CommandContext) async throws {
            let definitions = context.registry.all
            if format == .json {
                try JSONOutput.print(StepsDocument(steps: definitions.map {
                    .init(name: $0.name, description: $0.description, idempotent: $0.idempotent, resumable: $0.resumable,
                          revision: $0.revision, parameters: $0.parametersTypeName)
                }))
            } else {
                for definition in definitions {
                    let flags = [
                        definition.idempotent ? "idempotent" : nil, definition.resumable ? "resumable" : nil,
                        definition.revision.map { "revision \($0)" }]
                        .compactMap { $0 }
                    Terminal.out("\(definition.name)\(flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))")"
                        + (definition.description.map { "\n    \($0)" } ?? ""))
                }
            }
        }
    }
}
