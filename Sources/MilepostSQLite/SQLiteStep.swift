import Milepost

/// The built-in `sqlite` step (SQLite store only): runs SQL given inline or in a file relative to
/// the manifest, in the same transaction as its checkpoint — the step's writes and the record of
/// its success commit together, and a failure or a kill leaves neither.
enum SQLiteStep {
    struct Parameters: Decodable, StoreBoundParameters, DefinitionFileParameters {
        /// The SQL, inline or in a file.
        var script: SQLScript

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            script = try SQLScript(from: container, sql: .sql, file: .file)
        }

        enum CodingKeys: String, CodingKey { case sql, file }

        func refusal(for store: any MilepostStore) -> String? {
            store.scriptDialect == .sqlite
                ? nil : "the sqlite step needs a SQLite store (--store sqlite:PATH), and \(store.location) is not one"
        }

        var runsInCheckpointTransaction: Bool { true }

        var definitionFiles: [String] { script.definitionFiles }
    }

    @Sendable static func run(_ context: StepContext<Parameters>) async throws {
        guard let scripts = context.scripts, scripts.dialect == .sqlite else {
            // The runner refuses the manifest before any step runs; reaching this is a programmer error.
            preconditionFailure("the sqlite step ran against a store whose scripts are \(String(describing: context.scripts?.dialect))")
        }
        let text = try context.sqlText(context.parameters.script)
        context.logger.debug("sqlite: \(text.count) characters")
        try await scripts.run(text)
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
