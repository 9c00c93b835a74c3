import Dispatch
import FoundationEssentials
import Glibc
import Milepost
import MilepostSystem
import Synchronization

/// One Connector/C connection (`MYSQL *`). The library blocks, so every call runs on the
/// connection's own serial queue, off Swift's cooperative thread pool; the queue is also what
/// makes the connection safe to share between tasks (hence `@unchecked Sendable`).
///
/// Statements take parameters as `?` placeholders, each replaced by its value quoted with
/// `mysql_real_escape_string` (for the connection's character set, utf8mb4) or `NULL`: the store's
/// statements are few and fixed, so this is simpler than binding through `MYSQL_STMT`, whose
/// structures would have to be declared here byte for byte. The store's SQL has no other `?`.
final class MariaDBConnection: @unchecked Sendable {
    private let library: LibMariaDB
    private let handle: OpaquePointer
    private let queue = DispatchQueue(label: "milepost.mariadb.connection")
    let settings: MariaDBSettings
    /// The server's id of this connection (`KILL QUERY` names it).
    let threadID: UInt

    private init(library: LibMariaDB, handle: OpaquePointer, settings: MariaDBSettings) {
        self.library = library
        self.handle = handle
        self.settings = settings
        threadID = library.threadID(handle)
    }

    deinit {
        library.close(handle)
    }

    /// A result: the rows of the last statement that returned any, and the rows the last
    /// statement matched (`CLIENT_FOUND_ROWS`).
    struct Outcome {
        var rows: [SQLRow]
        var matched: UInt64
    }

    /// Connects to the settings' server, to its database unless `database` is false. Loads the
    /// library first if this is the first connection.
    /// - throws: `StoreError.unreachable` naming the server (never the password), or saying the
    ///   library cannot be loaded; `.io` when the database does not exist or the server refused.
    static func open(_ settings: MariaDBSettings, database: Bool = true) async throws(StoreError) -> MariaDBConnection {
        guard let connection = try await openIfCreated(settings, database: database) else {
            throw .io(location: settings.location, reason: .other("the database \(settings.database) does not exist"))
        }
        return connection
    }

    /// `open`, or nil when the database does not exist (`ER_BAD_DB_ERROR`).
    static func openIfCreated(_ settings: MariaDBSettings, database: Bool = true) async throws(StoreError) -> MariaDBConnection? {
        if let refusal = settings.refusal { throw .io(location: settings.location, reason: .invalidURL(refusal)) }
        let result: Result<MariaDBConnection?, StoreError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: connectNow(settings, database: database, timeoutSeconds: 10)) }
        }
        return try result.get()
    }

    /// `openIfCreated`, on the calling thread (the pre-start fast path: `MariaDBStore.readStateHeadSynchronously`),
    /// giving up on reaching the server after `timeoutSeconds`.
    static func connectNow(_ settings: MariaDBSettings, database: Bool, timeoutSeconds: UInt32) -> Result<MariaDBConnection?, StoreError> {
        let library: LibMariaDB
        switch LibMariaDB.shared {
        case .success(let loaded): library = loaded
        case .failure(let failure): return .failure(.unreachable(location: settings.location, reason: .other(failure.description)))
        }
        guard let handle = library.initialize(nil) else {
            return .failure(.unreachable(location: settings.location, reason: .other("mysql_init: out of memory")))
        }
        var timeout = timeoutSeconds
        _ = library.options(handle, LibMariaDB.optionConnectTimeout, &timeout)
        _ = library.options(handle, LibMariaDB.optionCharsetName, "utf8mb4")
        let connected = library.realConnect(
            handle, settings.host, settings.user, settings.password, database ? settings.database : nil, settings.port,
            settings.socket, LibMariaDB.clientFoundRows | LibMariaDB.clientMultiStatements)
        guard connected != nil else {
            let failure = MariaDBFailure(library: library, handle: handle)
            library.close(handle)
            if failure.code == MariaDBFailure.unknownDatabase { return .success(nil) }
            let target = settings.socket.map { "socket \($0)" } ?? "host \(settings.host ?? "localhost") port \(settings.port)"
            let reason = StoreError.Reason.database(
                sqlState: failure.sqlState, message: "\(target) database \(settings.database) user \(settings.user ?? "?"): \(failure.message)")
            return .failure(failure.connectionLost
                ? .unreachable(location: settings.location, reason: reason) : .io(location: settings.location, reason: reason))
        }
        return .success(MariaDBConnection(library: library, handle: handle, settings: settings))
    }

    // MARK: - Statements

    /// Runs `sql` (one statement, or a script of several when it has no parameters); cancelling
    /// the task kills it (`KILL QUERY` from a connection of its own), unless it is the locked
    /// store's bookkeeping (`StatementCancellation`).
    /// - throws: `MariaDBFailure`.
    @discardableResult
    func run(_ sql: String, _ parameters: [String?] = []) async throws(MariaDBFailure) -> Outcome {
        let (settings, threadID) = (settings, threadID)
        // `KILL QUERY` names the connection, not the statement: sent once this one has ended, it
        // would stop the next (the interruption's record). The killer looks just before it kills.
        let ended = StatementEnd()
        let result: Result<Outcome, MariaDBFailure> = await StatementCancellation.run {
            let outcome = await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.runNow(sql, parameters)) }
            }
            ended.mark()
            return outcome
        } stop: {
            Task.detached {
                guard let killer = try? await MariaDBConnection.open(settings), !ended.happened else { return }
                _ = try? await killer.run("KILL QUERY \(threadID)")
            }
        }
        return try result.get()
    }

    /// The rows of one statement.
    func query(_ sql: String, _ parameters: [String?] = []) async throws(MariaDBFailure) -> [SQLRow] {
        try await run(sql, parameters).rows
    }

    /// Whether a transaction is open on the connection now (`SERVER_STATUS_IN_TRANS`).
    func inTransaction() async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async {
                var status: UInt32 = 0
                _ = self.library.getInfo(self.handle, LibMariaDB.valueServerStatus, &status)
                continuation.resume(returning: status & LibMariaDB.serverStatusInTransaction != 0)
            }
        }
    }

    /// Makes the server end this connection (rolling back its transaction) when a transaction on
    /// it sits idle for longer than the lease (`idle_transaction_timeout`, MariaDB 10.3 and later,
    /// in whole seconds; a MySQL server has no such setting and keeps the transaction). Milepost
    /// never leaves a transaction idle for more than a moment; a holder frozen inside one (SIGSTOP,
    /// a paused VM, a partition) would otherwise keep its row locks for `wait_timeout` (8 hours by
    /// default), and the runner that took its lapsed lease would wait on them for
    /// `innodb_lock_wait_timeout` and fail its step, every time. As the PostgreSQL store bounds its
    /// transactions (`idle_in_transaction_session_timeout`).
    func boundingIdleTransactions() async throws(StoreError) -> MariaDBConnection {
        let seconds = (settings.lease + .nanoseconds(999_999_999)).components.seconds
        do {
            try await run("SET SESSION idle_transaction_timeout = \(seconds)")
        } catch where error.code == MariaDBFailure.unknownVariable {
            // A MySQL server.
        } catch {
            throw error.storeError(settings.location)
        }
        return self
    }

    /// Rolls back whatever transaction is open; a broken connection has none to roll back.
    func rollback() async {
        _ = try? await run("ROLLBACK")
    }

    /// `run`, on the calling thread, without cancellation: only on a connection nothing else uses
    /// (the pre-start fast path's).
    func runNow(_ sql: String, _ parameters: [String?]) -> Result<Outcome, MariaDBFailure> {
        let text = parameters.isEmpty ? sql : substituted(sql, parameters)
        let bytes = Array(text.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { library.realQuery(handle, $0.baseAddress, UInt(buffer.count)) }
        }
        guard status == 0 else { return .failure(MariaDBFailure(library: library, handle: handle)) }
        var outcome = Outcome(rows: [], matched: 0)
        while true {
            if let result = library.storeResult(handle) {
                outcome.rows = rows(of: result)
                library.freeResult(result)
            } else if library.fieldCount(handle) != 0 {
                return .failure(MariaDBFailure(library: library, handle: handle))
            } else {
                outcome.matched = library.affectedRows(handle)
            }
            let next = library.nextResult(handle)
            if next == -1 { return .success(outcome) }
            if next > 0 { return .failure(MariaDBFailure(library: library, handle: handle)) }
        }
    }

    private func rows(of result: OpaquePointer) -> [SQLRow] {
        let columns = Int(library.numFields(result))
        var rows: [SQLRow] = []
        while let row = library.fetchRow(result) {
            let lengths = library.fetchLengths(result)
            rows.append(SQLRow(columns: (0..<columns).map { column in
                guard let value = row[column] else { return nil }
                let length = lengths.map { Int($0[column]) } ?? strlen(value)
                return value.withMemoryRebound(to: UInt8.self, capacity: length) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
            }))
        }
        return rows
    }

    /// `sql` with each `?` replaced by the next parameter as a quoted literal (or `NULL`).
    private func substituted(_ sql: String, _ parameters: [String?]) -> String {
        var values = parameters.makeIterator()
        var text = ""
        for character in sql {
            guard character == "?" else {
                text.append(character)
                continue
            }
            guard let value = values.next() ?? nil else {
                text += "NULL"
                continue
            }
            let bytes = Array(value.utf8)
            var escaped = [CChar](repeating: 0, count: bytes.count * 2 + 1)
            let length = bytes.withUnsafeBufferPointer { source in
                source.withMemoryRebound(to: CChar.self) { library.realEscapeString(handle, &escaped, $0.baseAddress, UInt(bytes.count)) }
            }
            text += "'" + String(decoding: escaped[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self) + "'"
        }
        return text
    }
}

/// Why a statement (or a connection) failed: the server's or the library's error.
struct MariaDBFailure: Error, CustomStringConvertible {
    var code: UInt32
    var sqlState: SQLState?
    var message: String

    /// `ER_BAD_DB_ERROR`: the database does not exist.
    static let unknownDatabase: UInt32 = 1049
    /// `ER_NO_SUCH_TABLE`: the table does not exist.
    static let unknownTable: UInt32 = 1146
    /// `ER_QUERY_INTERRUPTED`: the statement was killed (`KILL QUERY`).
    static let interrupted: UInt32 = 1317
    /// `ER_UNKNOWN_SYSTEM_VARIABLE`: the server has no such setting.
    static let unknownVariable: UInt32 = 1193
    /// The server's errors saying it ended the connection: `ER_CONNECTION_KILLED` (MariaDB, a
    /// `KILL` or `idle_transaction_timeout`) and `ER_CLIENT_INTERACTION_TIMEOUT` (MySQL 8, `wait_timeout`).
    static let connectionEnded: Set<UInt32> = [1927, 4031]

    init(library: LibMariaDB, handle: OpaquePointer) {
        code = library.errno(handle)
        let state = library.sqlState(handle).map { String(cString: $0) }
        // A statement killed on request (by this connection's own cancellation, when the run's lock
        // was lost) is named in the stores' shared vocabulary, so the runner reports the loss, not the kill.
        sqlState = code == Self.interrupted
            ? .queryCanceled
            : state.flatMap { $0.isEmpty || $0 == "00000" || $0 == "HY000" ? nil : SQLState(rawValue: $0) }
        message = library.error(handle).map { String(cString: $0) } ?? "error \(code)"
    }

    /// Client errors 2000–2999 (`CR_*`: the server could not be reached or the connection broke,
    /// `Server has gone away` after `wait_timeout`), or the server saying it ended the connection.
    var connectionLost: Bool { (2000..<3000).contains(code) || Self.connectionEnded.contains(code) }

    var description: String { message }

    /// The failure as a store error: `.unreachable` when the connection broke, else `.io`.
    func storeError(_ location: String) -> StoreError {
        let reason = StoreError.Reason.database(sqlState: sqlState, message: "\(message) (error \(code))")
        return connectionLost ? .unreachable(location: location, reason: reason) : .io(location: location, reason: reason)
    }
}

extension SQLState {
    /// `40001`: MariaDB rolled the transaction back to break a deadlock (`ER_LOCK_DEADLOCK`); try again.
    static let deadlock = SQLState(rawValue: "40001")
}

/// Whether a statement has ended, for the `KILL QUERY` sent when its task is cancelled.
private final class StatementEnd: Sendable {
    private let ended = Mutex(false)

    var happened: Bool { ended.withLock { $0 } }

    func mark() { ended.withLock { $0 = true } }
}
