import FoundationEssentials
import Milepost

/// Milepost's tables in the URL's database (InnoDB, utf8mb4), and the statements on them:
///
/// - `milepost_state`: one row (`id` 1): the fencing `generation`, and the state as JSON (`state`,
///   NULL until the first checkpoint);
/// - `milepost_journal`: one row per record, `seq` in order of appending, `record` the record's
///   JSON as the file store writes a journal line;
/// - `milepost_lease`: one row (`id` 1), the lock: the holder's `run`, `pid`, `host`, `since` and
///   the lease's `expires_at` by the server's clock (NULL when free).
///
/// Every table has a primary key (Galera and group replication need one).
enum MariaDBSchema {
    static let state = "milepost_state"
    static let journal = "milepost_journal"
    static let lease = "milepost_lease"

    /// A new connection for a locked store's state and journal, its idle transactions bounded by
    /// the lease (`MariaDBConnection.boundingIdleTransactions`).
    static func dataConnection(_ settings: MariaDBSettings) async throws(StoreError) -> MariaDBConnection {
        try await MariaDBConnection.open(settings).boundingIdleTransactions()
    }

    /// Creates the database when missing, then the tables and their one rows when missing.
    /// - returns: The connection that created them, for a locked store's data (`dataConnection`).
    static func create(_ settings: MariaDBSettings) async throws(StoreError) -> MariaDBConnection {
        let connection: MariaDBConnection
        if let existing = try await MariaDBConnection.openIfCreated(settings) {
            connection = existing
        } else {
            let server = try await MariaDBConnection.open(settings, database: false)
            try await run(server, "CREATE DATABASE IF NOT EXISTS \(settings.quotedDatabase) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
            connection = try await MariaDBConnection.open(settings)
        }
        let table = "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin"
        try await run(connection, """
            CREATE TABLE IF NOT EXISTS \(state) (id TINYINT PRIMARY KEY, generation BIGINT NOT NULL, state LONGTEXT NULL) \(table);
            CREATE TABLE IF NOT EXISTS \(journal) (seq BIGINT AUTO_INCREMENT PRIMARY KEY, record LONGTEXT NOT NULL) \(table);
            CREATE TABLE IF NOT EXISTS \(lease) (id TINYINT PRIMARY KEY, run VARCHAR(255) NULL, pid INT NULL,
                host VARCHAR(255) NULL, since VARCHAR(32) NULL, expires_at DATETIME(6) NULL) \(table);
            INSERT IGNORE INTO \(state) (id, generation) VALUES (1, 0);
            INSERT IGNORE INTO \(lease) (id) VALUES (1)
            """)
        return try await connection.boundingIdleTransactions()
    }

    /// The stored state; nil when there is none (or no table yet).
    static func readState(on connection: MariaDBConnection) async throws(StoreError) -> StoredState? {
        guard let rows = try await rowsIfCreated(connection, "SELECT state FROM \(state) WHERE id = 1"),
              let json = rows.first?.text(0) else { return nil }
        return try StoredState.decode(json: Array(json.utf8), location: connection.settings.location)
    }

    /// The stored state's head (`StoredStateHead`), scanned from the state row's JSON in one query
    /// on the calling thread (the pre-start fast path); nil when there is no state, the query failed
    /// or the scan cannot vouch for it.
    static func readStateHeadNow(on connection: MariaDBConnection) -> StoredStateHead? {
        guard case .success(let outcome) = connection.runNow("SELECT state FROM \(state) WHERE id = 1", []),
              let json = outcome.rows.first?.text(0)
        else { return nil }
        return StoredStateHead(json: Array(json.utf8))
    }

    /// The journal, oldest first: every record, or the last `count`.
    static func journal(last count: Int?, on connection: MariaDBConnection) async throws(StoreError) -> [JournalRecord] {
        let sql = count.map {
            "SELECT seq, record FROM (SELECT seq, record FROM \(journal) ORDER BY seq DESC LIMIT \($0)) last ORDER BY seq"
        } ?? "SELECT seq, record FROM \(journal) ORDER BY seq"
        guard let rows = try await rowsIfCreated(connection, sql) else { return [] }
        let decoder = JSONDecoder()
        return try rows.map { row throws(StoreError) in
            do {
                return try decoder.decode(JournalRecord.self, from: Data((row.text(1) ?? "").utf8))
            } catch {
                throw .io(
                    location: connection.settings.location,
                    reason: .malformed("the journal row \(row.text(0) ?? "?") is not a journal record: \(DecodingError.summary(of: error))"))
            }
        }
    }

    /// In the open transaction: locks the state row and checks that its generation is still
    /// `generation` (no other runner took the lock since), then writes `state` (when given, bumping
    /// the generation) and appends `records`. Does not commit.
    /// - returns: The new generation; nil when the fence refused (nothing was written).
    static func write(
        _ stored: StoredState?, journal records: [JournalRecord], ifGeneration generation: Int64, on connection: MariaDBConnection
    ) async throws(StoreError) -> Int64? {
        let current = try await rows(connection, "SELECT generation FROM \(state) WHERE id = 1 FOR UPDATE").first?.text(0)
        guard current == String(generation) else { return nil }
        var written = generation
        if let stored {
            try await run(
                connection, "UPDATE \(state) SET state = ?, generation = generation + 1 WHERE id = 1",
                [String(decoding: stored.json, as: UTF8.self)])
            written += 1
        }
        try await append(records, on: connection)
        return written
    }

    /// Appends `records` in order (one statement).
    static func append(_ records: [JournalRecord], on connection: MariaDBConnection) async throws(StoreError) {
        guard !records.isEmpty else { return }
        let values = Array(repeating: "(?)", count: records.count).joined(separator: ", ")
        try await run(connection, "INSERT INTO \(journal) (record) VALUES \(values)", records.map { String(decoding: $0.json, as: UTF8.self) })
    }

    // MARK: - Statements as store errors

    @discardableResult
    static func run(_ connection: MariaDBConnection, _ sql: String, _ parameters: [String?] = []) async throws(StoreError) -> MariaDBConnection.Outcome {
        do {
            return try await connection.run(sql, parameters)
        } catch {
            throw error.storeError(connection.settings.location)
        }
    }

    static func rows(_ connection: MariaDBConnection, _ sql: String, _ parameters: [String?] = []) async throws(StoreError) -> [SQLRow] {
        try await run(connection, sql, parameters).rows
    }

    /// The rows; nil when the table does not exist yet.
    static func rowsIfCreated(_ connection: MariaDBConnection, _ sql: String) async throws(StoreError) -> [SQLRow]? {
        do {
            return try await connection.query(sql)
        } catch {
            if error.code == MariaDBFailure.unknownTable { return nil }
            throw error.storeError(connection.settings.location)
        }
    }
}
