/// A SQLSTATE: the five-character error code a SQL database sends with an error (SQL standard;
/// PostgreSQL, MariaDB and SQLite-compatible layers name their errors this way). Stores compare
/// codes by name, never by literal.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// `42501`: the role lacks a privilege (the data is intact).
    public static let insufficientPrivilege = SQLState(rawValue: "42501")
    /// `57014`: the statement was cancelled on request — by Milepost itself when its lock was lost
    /// (PostgreSQL's `query_canceled`; MariaDB's `ER_QUERY_INTERRUPTED`, SQLSTATE 70100, is reported as this).
    public static let queryCanceled = SQLState(rawValue: "57014")
}
