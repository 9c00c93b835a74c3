import CSQLite
import Milepost

/// One connection to the database (`sqlite3 *`), closed when this goes away. Not thread-safe by
/// itself: one owner uses it at a time (a read of `SQLiteStore`, or the `LockedSQLiteStore` actor).
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// The store's location, for messages.
    let location: String

    private init(handle: OpaquePointer, location: String) {
        self.handle = handle
        self.location = location
    }

    deinit { sqlite3_close_v2(handle) }

    /// How long a statement waits for another connection's write lock (the application's, or a
    /// checkpoint of the WAL) before it fails with "database is locked".
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens the database at `path`: read-only (never creating it), or read-write, creating it.
    static func open(path: String, location: String, readOnly: Bool) throws(StoreError) -> SQLiteConnection {
        var handle: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            if let handle { sqlite3_close_v2(handle) }
            throw .io(location: location, reason: .database(sqlState: nil, message: "cannot open the database: \(message)"))
        }
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        return SQLiteConnection(handle: handle, location: location)
    }

    /// True while a transaction is open on this connection.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `sql`, one or more statements without parameters, discarding any rows.
    /// - throws: `StoreError.io` with SQLite's message.
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw failure(text)
        }
    }

    /// Runs one statement with text (or nil) parameters and returns its rows, each column as text
    /// (nil for NULL).
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [[String?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(lastMessage)
        }
        defer { sqlite3_finalize(statement) }
        for (index, parameter) in parameters.enumerated() {
            let code: Int32
            if let parameter {
                code = parameter.withCString { milepost_sqlite3_bind_text_copy(statement, Int32(index + 1), $0, -1) }
            } else {
                code = sqlite3_bind_null(statement, Int32(index + 1))
            }
            guard code == SQLITE_OK else { throw failure(lastMessage) }
        }
        var rows: [[String?]] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                rows.append((0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { text in
                        String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
                    }
                })
            case SQLITE_DONE:
                return rows
            default:
                throw failure(lastMessage)
            }
        }
    }

    /// True when the database has the table `name`.
    func hasTable(_ name: String) throws(StoreError) -> Bool {
        try !query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).isEmpty
    }

    /// Rolls back the open transaction, if any. Best effort: a failed rollback leaves nothing open
    /// that outlives the connection.
    func rollback() {
        if inTransaction { try? execute("ROLLBACK") }
    }

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    private func failure(_ message: String) -> StoreError {
        .io(location: location, reason: .database(sqlState: nil, message: message))
    }
}
