import Milepost

/// The built-in `mysql` step (MariaDB/MySQL store only): runs SQL given inline or in a file
/// relative to the manifest, in the same transaction as its checkpoint — except that DDL
/// (`CREATE`, `ALTER`, `DROP`, …) commits that transaction implicitly, so a script with DDL is
/// committed on its own and runs again after a kill before its checkpoint: write it to be
/// idempotent (`IF NOT EXISTS`, `IF EXISTS`). See docs/store.md.
enum MySQLStep {
    struct Parameters: Decodable, StoreBoundParameters, DefinitionFileParameters {
        /// The SQL, inline or in a file.
        var script: SQLScript

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            script = try SQLScript(from: container, sql: .sql, file: .file)
        }

        enum CodingKeys: String, CodingKey { case sql, file }

        func refusal(for store: any MilepostStore) -> String? {
            store.scriptDialect == .mariadb
                ? nil : "the mysql step needs a MariaDB/MySQL store (--store mysql://…), and \(store.location) is not one"
        }

        var runsInCheckpointTransaction: Bool { true }

        var definitionFiles: [String] { script.definitionFiles }
    }

    @Sendable static func run(_ context: StepContext<Parameters>) async throws {
        guard let scripts = context.scripts, scripts.dialect == .mariadb else {
            // The runner refuses the manifest before any step runs; reaching this is a programmer error.
            preconditionFailure("the mysql step ran against a store whose scripts are \(String(describing: context.scripts?.dialect))")
        }
        let text = try context.sqlText(context.parameters.script)
        context.logger.debug("mysql: \(text.count) characters")
        if try await scripts.run(text) {
            context.logger.warning(
                "mysql: the script committed the step's transaction (DDL commits implicitly): its work is committed, its checkpoint follows in a transaction of its own; a kill in between runs the script again")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
