import Milepost

/// The built-in `sqlite` step (SQLite store only): runs SQL given inline or in a file relative to
/// the manifest, in the same transaction as its checkpoint — the step's writes and the record of
/// its success commit together, and a failure or a kill leaves neither.
enum SQLiteStep {
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
            store is SQLiteStore
                ? nil : "the sqlite step needs a SQLite store (--store sqlite:PATH), and \(store.location) is not one"
        }

        var runsInCheckpointTransaction: Bool { true }

        /// `file:`: the step's SQL is in it, so its contents are part of the step's fingerprint.
        var definitionFiles: [String] { file.map { [$0] } ?? [] }
    }

    @Sendable static func run(_ context: StepContext<Parameters>) async throws {
        guard let store = context.store as? LockedSQLiteStore else {
            // The runner refuses the manifest before any step runs; reaching this is a programmer error.
            preconditionFailure("the sqlite step ran against \(type(of: context.store)), not the SQLite store")
        }
        let text = try context.sqlText(context.parameters.sql, file: context.parameters.file)
        context.logger.debug("sqlite: \(text.count) characters")
        try await store.execute(stepSQL: text)
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
