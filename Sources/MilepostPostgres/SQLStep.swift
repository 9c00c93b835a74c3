import Milepost

/// The built-in `sql` step (PostgreSQL store only): runs SQL given inline or in a file relative to
/// the manifest, by default in the same transaction as its checkpoint.
enum SQLStep {
    struct Parameters: Decodable, StoreBoundParameters, DefinitionFileParameters, ParameterWarnings {
        /// The SQL, inline or in a file.
        var script: SQLScript
        /// False to run outside the checkpoint's transaction (`CREATE INDEX CONCURRENTLY`); the
        /// step then behaves like any other step.
        var transaction: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // `transaction` first: the schema's probe (which gives neither `sql` nor `file`) must see it.
            transaction = try container.decodeIfPresent(Bool.self, forKey: .transaction) ?? true
            script = try SQLScript(from: container, sql: .sql, file: .file)
        }

        enum CodingKeys: String, CodingKey { case sql, file, transaction }

        func refusal(for store: any MilepostStore) -> String? {
            store.scriptDialect == .postgresql
                ? nil : "the sql step needs a PostgreSQL store (--store postgres://…), and \(store.location) is not one"
        }

        var runsInCheckpointTransaction: Bool { transaction }

        var definitionFiles: [String] { script.definitionFiles }

        /// Transaction control in an inline script that runs in the checkpoint's transaction: it
        /// would end that transaction early (the step then fails at run time).
        var warnings: [String] {
            guard transaction, let sql = script.sql else { return [] }
            return SQLTransactionControl.statements(in: sql).map {
                "the script has \($0), which would end the step's transaction before its checkpoint; remove it "
                    + "(the step runs in a transaction already) or set transaction: false"
            }
        }
    }

    @Sendable static func run(_ context: StepContext<Parameters>) async throws {
        guard let scripts = context.scripts, scripts.dialect == .postgresql else {
            // The runner refuses the manifest before any step runs; reaching this is a programmer error.
            preconditionFailure("the sql step ran against a store whose scripts are \(String(describing: context.scripts?.dialect))")
        }
        let text = try context.sqlText(context.parameters.script)
        context.logger.debug("sql: \(text.count) characters, transaction: \(context.parameters.transaction)")
        try await scripts.run(text)
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
