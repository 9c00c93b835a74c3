import Milepost

/// One connection to the database (`sqlite3 *`), closed when this goes away. Not thread-safe by
/// itself (opened `SQLITE_OPEN_NOMUTEX`): one owner uses it at a time — a read of `SQLiteStore`, or
/// the locked store's actor (`LockedSQLStore`), on which its dialect's calls run.
final class SQLiteConnection {
    private let sqlite: LibSQLite
    private let handle: OpaquePointer
    /// The store's location, for messages.
    let location: String

    private init(sqlite: LibSQLite, handle: OpaquePointer, location: String) {
        self.sqlite = sqlite
        self.handle = handle
        self.location = location
    }

    deinit { _ = sqlite.closeV2(handle) }

    /// How long a statement waits for another connection's write lock (the application's, or a
    /// checkpoint of the WAL) before it fails with "database is locked".
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// Opens the database at `path`: read-only (never creating it), or read-write, creating it.
    static func open(path: String, location: String, readOnly: Bool) throws(StoreError) -> SQLiteConnection {
        let sqlite: LibSQLite
        switch LibSQLite.shared {
        case .success(let loaded): sqlite = loaded
        case .failure(let failure): throw .io(location: location, reason: .database(sqlState: nil, message: failure.description))
        }
        var handle: OpaquePointer?
        let flags = (readOnly ? LibSQLite.openReadOnly : LibSQLite.openReadWrite | LibSQLite.openCreate) | LibSQLite.openNoMutex
        let code = sqlite.openV2(path, &handle, flags, nil)
        guard code == LibSQLite.ok, let handle else {
            let message = (handle.flatMap { sqlite.errmsg($0) } ?? sqlite.errstr(code)).map { String(cString: $0) } ?? "error \(code)"
            if let handle { _ = sqlite.closeV2(handle) }
            throw .io(location: location, reason: .database(sqlState: nil, message: "cannot open the database: \(message)"))
        }
        _ = sqlite.extendedResultCodes(handle, 1)
        _ = sqlite.busyTimeout(handle, busyTimeoutMilliseconds)
        return SQLiteConnection(sqlite: sqlite, handle: handle, location: location)
    }

    /// True while a transaction is open on this connection.
    var inTransaction: Bool { sqlite.getAutocommit(handle) == 0 }

    /// Runs `sql`, one or more statements without parameters, discarding any rows.
    /// - throws: `StoreError.io` with SQLite's message.
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite.exec(handle, sql, nil, nil, &message)
        guard code == LibSQLite.ok else {
            let text = message.map { String(cString: $0) } ?? sqlite.errstr(code).map { String(cString: $0) } ?? "error \(code)"
            sqlite.free(message)
            throw failure(text)
        }
    }

    /// Runs one statement with text (or nil) parameters and returns its rows, each column as text
    /// (nil for NULL).
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) throws(StoreError) -> [SQLRow] {
        var statement: OpaquePointer?
        guard sqlite.prepareV2(handle, sql, -1, &statement, nil) == LibSQLite.ok, let statement else {
            throw failure(lastMessage)
        }
        defer { _ = sqlite.finalize(statement) }
        for (index, parameter) in parameters.enumerated() {
            let code: Int32
            if let parameter {
                code = parameter.withCString { sqlite.bindText(statement, Int32(index + 1), $0, -1, LibSQLite.transient) }
            } else {
                code = sqlite.bindNull(statement, Int32(index + 1))
            }
            guard code == LibSQLite.ok else { throw failure(lastMessage) }
        }
        var rows: [SQLRow] = []
        while true {
            switch sqlite.step(statement) {
            case LibSQLite.row:
                rows.append(SQLRow(columns: (0..<sqlite.columnCount(statement)).map { column in
                    sqlite.columnText(statement, column).map { text in
                        String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite.columnBytes(statement, column))), as: UTF8.self)
                    }
                }))
            case LibSQLite.done:
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

    private var lastMessage: String { sqlite.errmsg(handle).map { String(cString: $0) } ?? "unknown error" }

    private func failure(_ message: String) -> StoreError {
        .io(location: location, reason: .database(sqlState: nil, message: message))
    }
}
