/// One row of a query's result on a database store, its columns as the server sent them in text,
/// read by type: the one place that knows how each database spells a boolean (PostgreSQL `t`/`f`,
/// MariaDB and SQLite `1`/`0`) and that numbers arrive as decimal text.
package struct SQLRow: Sendable {
    /// The columns as text; nil for NULL.
    package let columns: [String?]

    package init(columns: [String?]) {
        self.columns = columns
    }

    /// The column as text; nil for NULL.
    package func text(_ column: Int) -> String? { columns[column] }

    /// True when a boolean column (or a comparison) is true; false when it is false or NULL.
    package func isTrue(_ column: Int) -> Bool { columns[column] == "t" || columns[column] == "1" }

    /// A 64-bit integer column; nil for NULL.
    package func int64(_ column: Int) -> Int64? { columns[column].flatMap { Int64($0) } }

    /// A 32-bit integer column; nil for NULL.
    package func int32(_ column: Int) -> Int32? { columns[column].flatMap { Int32($0) } }
}
