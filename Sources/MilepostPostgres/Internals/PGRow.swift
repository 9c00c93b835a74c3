/// One row of a query's result, its columns in PostgreSQL's text format, read by type: the one
/// place that knows booleans arrive as `t`/`f` and numbers as decimal text.
struct PGRow: Sendable {
    /// The columns as the server sent them; nil for NULL.
    let columns: [String?]

    /// The column as text; nil for NULL.
    func text(_ column: Int) -> String? { columns[column] }

    /// True when a `boolean` column is true; false when it is false or NULL.
    func isTrue(_ column: Int) -> Bool { columns[column] == "t" }

    /// A `bigint` column; nil for NULL.
    func int64(_ column: Int) -> Int64? { columns[column].flatMap { Int64($0) } }

    /// An `integer` column; nil for NULL.
    func int32(_ column: Int) -> Int32? { columns[column].flatMap { Int32($0) } }
}
