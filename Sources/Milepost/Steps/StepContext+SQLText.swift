import MilepostSystem

// The text of a step that runs SQL (`sql` on PostgreSQL, `sqlite` on SQLite, `mysql` on
// MariaDB): its `SQLScript`, given inline or in a file beside the manifest.
extension StepContext {
    /// The largest SQL file a step reads (64 MiB): it is sent to the database as one text.
    package static var maxSQLFileBytes: Int { 64 << 20 }

    /// The script's `sql` when given, else the contents of its `file` (relative to the manifest's
    /// directory): a regular file of UTF-8 text of at most `maxSQLFileBytes`.
    /// - throws: `SQLTextFailure` saying why the file cannot be read.
    package func sqlText(_ script: SQLScript) throws -> String {
        if let sql = script.sql { return sql }
        let path = manifestPath(script.file ?? "")
        do {
            let bytes = try RegularFileReader.contents(path: PathText.filePath(path), maxBytes: Self.maxSQLFileBytes)
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                throw SQLTextFailure(message: "cannot read \(path): it is not UTF-8 text")
            }
            return decoded
        } catch let error as RegularFileReader.Failure {
            throw SQLTextFailure(message: "cannot read \(path): \(error.reason)")
        }
    }
}

/// The SQL file of a step cannot be read; the step fails with this message.
package struct SQLTextFailure: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
