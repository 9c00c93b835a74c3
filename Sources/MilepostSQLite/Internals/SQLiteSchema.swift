import FoundationEssentials
import Milepost

/// Milepost's tables in the database, and the statements on them:
///
/// - `milepost_state`: one row (`id` 1), the state as JSON (`state`);
/// - `milepost_journal`: one row per record, `seq` in order of appending, `record` the record's
///   JSON as the file store writes a journal line (without its newline).
enum SQLiteSchema {
    static let stateTable = "milepost_state"
    static let journalTable = "milepost_journal"

    /// WAL (readers never wait for a writer), every commit synced before it returns, and the tables.
    static func prepare(_ connection: SQLiteConnection) throws(StoreError) {
        let mode = try connection.query("PRAGMA journal_mode = WAL").first?.text(0)
        guard mode?.lowercased() == "wal" else {
            throw .io(location: connection.location, reason: .other("cannot switch the database to WAL mode (journal_mode is \(mode ?? "?"))"))
        }
        try connection.execute("""
            PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS \(stateTable) (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS \(journalTable) (seq INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL);
            """)
    }

    /// The stored state; nil when there is no state row (or no table yet).
    static func readState(on connection: SQLiteConnection) throws(StoreError) -> StoredState? {
        try stateText(on: connection).map { text throws(StoreError) in try state(from: text, on: connection) }
    }

    /// The state a row's JSON (`stateText`) holds.
    static func state(from text: String, on connection: SQLiteConnection) throws(StoreError) -> StoredState {
        try StoredState.decode(json: Array(text.utf8), location: connection.location)
    }

    /// The state row's JSON; nil when there is no state row (or no table yet). The table is looked
    /// for first, as `journal` does: tables are never dropped, so once seen the query finds it.
    /// Asking after a failed query instead read a world another runner may have changed in between
    /// (its `CREATE TABLE` landing there), and reported "no such table" for a store just created.
    static func stateText(on connection: SQLiteConnection) throws(StoreError) -> String? {
        guard try connection.hasTable(stateTable) else { return nil }
        let rows = try connection.query("SELECT state FROM \(stateTable) WHERE id = 1")
        guard let row = rows.first else { return nil }
        return row.text(0) ?? ""
    }

    /// The stored state's head (`StoredStateHead`), scanned from the row's JSON without decoding it;
    /// nil when there is no state row (or no table yet) or the scan cannot vouch for it.
    static func readStateHead(on connection: SQLiteConnection) throws(StoreError) -> StoredStateHead? {
        try stateText(on: connection).flatMap { StoredStateHead(json: Array($0.utf8)) }
    }

    /// The journal, oldest first: every record, or the last `count`.
    static func journal(last count: Int?, on connection: SQLiteConnection) throws(StoreError) -> [JournalRecord] {
        guard try connection.hasTable(journalTable) else { return [] }
        let rows: [SQLRow]
        if let count {
            rows = try connection.query(
                "SELECT seq, record FROM (SELECT seq, record FROM \(journalTable) ORDER BY seq DESC LIMIT \(count)) ORDER BY seq")
        } else {
            rows = try connection.query("SELECT seq, record FROM \(journalTable) ORDER BY seq")
        }
        let decoder = JSONDecoder()
        return try rows.map { row throws(StoreError) in
            do {
                return try decoder.decode(JournalRecord.self, from: Data((row.text(1) ?? "").utf8))
            } catch {
                throw .io(
                    location: connection.location,
                    reason: .malformed("the journal row \(row.text(0) ?? "?") is not a journal record: \(DecodingError.summary(of: error))"))
            }
        }
    }

    /// Replaces the state row.
    /// - returns: the JSON written, as `stateText` reads it back.
    @discardableResult
    static func write(_ state: StoredState, on connection: SQLiteConnection) throws(StoreError) -> String {
        let json = String(decoding: state.json, as: UTF8.self)
        try connection.query(
            "INSERT INTO \(stateTable) (id, state) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET state = excluded.state", [json])
        return json
    }

    /// Appends `records` to the journal, in order.
    static func append(_ records: [JournalRecord], on connection: SQLiteConnection) throws(StoreError) {
        for record in records {
            try connection.query("INSERT INTO \(journalTable) (record) VALUES (?)", [String(decoding: record.json, as: UTF8.self)])
        }
    }
}
