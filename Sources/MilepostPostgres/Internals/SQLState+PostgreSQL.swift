import Milepost

/// The SQLSTATEs the PostgreSQL store tells apart (PostgreSQL's "Errcodes" appendix).
extension SQLState {
    /// `3F000`: the schema does not exist (nothing was stored yet).
    static let invalidSchemaName = SQLState(rawValue: "3F000")
    /// `42P01`: the table does not exist (nothing was stored yet).
    static let undefinedTable = SQLState(rawValue: "42P01")
    /// `42704`: an unknown object, such as a setting an older server does not have.
    static let undefinedObject = SQLState(rawValue: "42704")
}
