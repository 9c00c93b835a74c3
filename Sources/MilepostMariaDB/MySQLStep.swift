import Milepost

/// The built-in `mysql` step (MariaDB/MySQL store only): runs SQL given inline or in a file
/// relative to the manifest, in the same transaction as its checkpoint — except that DDL
/// (`CREATE`, `ALTER`, `DROP`, …) commits that transaction implicitly, so a script with DDL is
/// committed on its own and runs again after a kill before its checkpoint: write it to be
/// idempotent (`IF NOT EXISTS`, `IF EXISTS`). See docs/store.md.
enum MySQLStep {
    struct Parameters: Decodable, StoreBoundParameters, DefinitionFileParameters {
        /// The SQL to run, inline.
        var sql: String?
        /// A file holding the SQL; relative to the manifest's directory.
        var file: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            sql = try container.decodeIfPresent(String.self, forKey: .sql)
            file = try container.decodeIfPresent(String.self, forKey: .file)
            guard (sql == nil) != (file == nil) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "give either 'sql' or 'file', not both or neither"))
            }
        }

        enum CodingKeys: String, CodingKey { case sql, file }

        func refusal(for store: any MilepostStore) -> String? {
            store is MariaDBStore
                ? nil : "the mysql step needs a MariaDB/MySQL store (--store mysql://…), and \(store.location) is not one"
        }

        var runsInCheckpointTransaction: Bool { true }

        /// `file:`: the step's SQL is in it, so its contents are part of the step's fingerprint.
        var definitionFiles: [String] { file.map { [$0] } ?? [] }
    }

    @Sendable static func run(_ context: StepContext<Parameters>) async throws {
        guard let store = context.store as? LockedMariaDBStore else {
            // The runner refuses the manifest before any step runs; reaching this is a programmer error.
            preconditionFailure("the mysql step ran against \(type(of: context.store)), not the MariaDB store")
        }
        let text = try context.sqlText(context.parameters.sql, file: context.parameters.file)
        context.logger.debug("mysql: \(text.count) characters")
        if try await store.execute(stepSQL: text) {
            context.logger.warning(
                "mysql: the script committed the step's transaction (DDL commits implicitly): its work is committed, its checkpoint follows in a transaction of its own; a kill in between runs the script again")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
