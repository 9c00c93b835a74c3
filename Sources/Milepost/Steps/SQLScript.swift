/// What a step that runs SQL is given (the built-in `sql`, `sqlite` and `mysql` steps): the SQL
/// inline (`with: {sql: …}`) or a file beside the manifest holding it (`with: {file: …}`), exactly
/// one of them. A step's parameters decode it from their own container (`init(from:sql:file:)`),
/// so their other keys stay theirs — decode those first: the manifest schema's probe gives neither
/// `sql` nor `file`, and sees only the keys decoded before this throws. `StepContext.sqlText(_:)`
/// reads its text when the step runs.
package struct SQLScript: Sendable {
    /// The SQL to run, inline.
    package var sql: String?
    /// A file holding the SQL; relative to the manifest's directory.
    package var file: String?

    /// `sql` and `file` from `container`.
    /// - throws: `DecodingError.dataCorrupted` when both or neither are given.
    package init<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, sql sqlKey: Key, file fileKey: Key) throws {
        sql = try container.decodeIfPresent(String.self, forKey: sqlKey)
        file = try container.decodeIfPresent(String.self, forKey: fileKey)
        guard (sql == nil) != (file == nil) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: container.codingPath, debugDescription: "give either 'sql' or 'file', not both or neither"))
        }
    }

    /// `file:`: the step's SQL is in it, so its contents are part of the step's fingerprint
    /// (`DefinitionFileParameters`).
    package var definitionFiles: [String] { file.map { [$0] } ?? [] }
}
