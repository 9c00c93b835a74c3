import Dispatch
import Glibc
import FoundationEssentials
import Milepost

/// One libpq connection (`PGconn`). libpq blocks, so every call runs on the connection's own
/// serial queue, off Swift's cooperative thread pool; the queue is also what makes the
/// connection safe to share between tasks (hence `@unchecked Sendable`).
final class PGConnection: @unchecked Sendable {
    private let pq: LibPQ
    private let handle: OpaquePointer
    /// Sends a cancel request for the running query; callable from any thread (`PQcancel`).
    private let canceller: OpaquePointer?
    private let queue = DispatchQueue(label: "milepost.postgres.connection")
    /// When the last statement ended leaving a transaction block open; nil when none is open.
    /// Read and written on `queue` only.
    private var idleInTransactionSince: ContinuousClock.Instant?

    /// The server process serving this connection (`PQbackendPID`).
    let backendPID: Int32

    private init(pq: LibPQ, handle: OpaquePointer) {
        self.pq = pq
        self.handle = handle
        self.canceller = pq.getCancel(handle)
        self.backendPID = pq.backendPID(handle)
    }

    deinit {
        if let canceller { pq.freeCancel(canceller) }
        pq.finish(handle)
    }

    /// Connects with `PQconnectdbParams` (keywords in order, `dbname` expanded as a connection string),
    /// loading libpq first if this is the first connection.
    /// - throws: `PGConnectFailure` naming host, port, database and user, never the password, or
    ///   saying that libpq cannot be loaded.
    static func connect(_ parameters: [(String, String)]) async throws(PGConnectFailure) -> PGConnection {
        let result: Result<PGConnection, PGConnectFailure> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: connectNow(parameters))
            }
        }
        return try result.get()
    }

    /// `connect`, on the calling thread: for the pre-start fast path, which answers before any
    /// thread starts (`PostgresStore.readStateHeadSynchronously`).
    static func connectNow(_ parameters: [(String, String)]) -> Result<PGConnection, PGConnectFailure> {
        let pq: LibPQ
        switch LibPQ.shared {
        case .success(let loaded): pq = loaded
        case .failure(let failure): return .failure(PGConnectFailure(target: nil, message: failure.description))
        }
        var keywords = parameters.map { strdup($0.0) }
        var values = parameters.map { strdup($0.1) }
        keywords.append(nil)
        values.append(nil)
        defer {
            for pointer in keywords + values { free(pointer) }
        }
        let handle: OpaquePointer? = keywords.withUnsafeBufferPointer { keywordBuffer in
            values.withUnsafeBufferPointer { valueBuffer in
                keywordBuffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { keywordPointers in
                    valueBuffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { valuePointers in
                        pq.connectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 1)
                    }
                }
            }
        }
        guard let handle else { return .failure(PGConnectFailure(target: "?", message: "out of memory")) }
        guard pq.status(handle) == LibPQ.connectionOK else {
            let failure = PGConnectFailure(
                target: "host \(text(pq.host(handle))) port \(text(pq.port(handle))) "
                    + "database \(text(pq.db(handle))) user \(text(pq.user(handle)))",
                message: text(pq.errorMessage(handle)))
            pq.finish(handle)
            return .failure(failure)
        }
        return .success(PGConnection(pq: pq, handle: handle))
    }

    // MARK: - Queries

    /// Runs one statement with text parameters (`PQexecParams`), or a script of several
    /// statements when there are no parameters (`PQexec`). Cancelling the task cancels the query,
    /// unless it is the locked store's bookkeeping (`StatementCancellation`).
    /// - returns: The rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) async throws(PGQueryFailure) -> [SQLRow] {
        let result: Result<[SQLRow], PGQueryFailure> = await StatementCancellation.run {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.executeNow(sql, parameters)) }
            }
        } stop: {
            self.cancel()
        }
        return try result.get()
    }

    /// Whether a transaction block is open on the connection now (`PQtransactionStatus`): true
    /// in a block (also a failed one), false when idle or the connection is broken.
    func inTransaction() async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async {
                let status = self.pq.transactionStatus(self.handle)
                continuation.resume(returning: status == LibPQ.transactionInBlock || status == LibPQ.transactionInFailedBlock)
            }
        }
    }

    /// Asks the server to cancel the statement in progress, if any.
    func cancel() {
        guard let canceller else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = pq.cancel(canceller, &buffer, Int32(buffer.count))
    }

    /// `execute`, on the calling thread, without cancellation: only on a connection nothing else
    /// uses (the pre-start fast path's).
    func executeNow(_ sql: String, _ parameters: [String?]) -> Result<[SQLRow], PGQueryFailure> {
        let idleSince = idleInTransactionSince
        defer {
            let status = pq.transactionStatus(handle)
            idleInTransactionSince = status == LibPQ.transactionInBlock || status == LibPQ.transactionInFailedBlock ? .now : nil
        }
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = pq.exec(handle, sql)
        } else {
            var values = parameters.map { $0.map { strdup($0) } ?? nil }
            defer { for pointer in values { free(pointer) } }
            result = values.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
                    pq.execParams(handle, sql, Int32(parameters.count), nil, pointers.baseAddress, nil, nil, 0)
                }
            }
        }
        defer { pq.clear(result) }
        switch pq.resultStatus(result) {
        case LibPQ.commandOK, LibPQ.emptyQuery:
            return .success([])
        case LibPQ.tuplesOK:
            let rows = Int(pq.ntuples(result))
            let columns = Int(pq.nfields(result))
            return .success((0..<rows).map { row in
                SQLRow(columns: (0..<columns).map { column in
                    pq.getisnull(result, Int32(row), Int32(column)) == 1
                        ? nil : pq.getvalue(result, Int32(row), Int32(column)).map { String(cString: $0) } ?? ""
                })
            })
        default:
            let sqlState = pq.resultErrorField(result, LibPQ.diagnosticSQLState).map { SQLState(rawValue: String(cString: $0)) }
            let message = Self.text(result.map { UnsafePointer(pq.resultErrorMessage($0)) } ?? pq.errorMessage(handle))
            let connectionLost = pq.status(handle) != LibPQ.connectionOK
            return .failure(PGQueryFailure(
                sqlState: sqlState, message: message.isEmpty ? Self.text(pq.errorMessage(handle)) : message,
                connectionLost: connectionLost, idleInTransaction: connectionLost ? idleSince.map { .now - $0 } : nil))
        }
    }

    /// libpq's message on one line: its lines (`server closed the connection unexpectedly\n\tThis
    /// probably means…`) joined by single spaces, without the final period, as every error of a
    /// store is shown inside a sentence of Milepost's.
    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        let words = String(cString: pointer).split(whereSeparator: { $0.isWhitespace })
        let line = words.joined(separator: " ")
        return line.hasSuffix(".") ? String(line.dropLast()) : line
    }
}

/// Why a connection could not be opened.
struct PGConnectFailure: Error {
    /// `host H port P database D user U`, as libpq resolved them (no password); nil when libpq
    /// itself could not be loaded.
    var target: String?
    var message: String
}

/// Why a statement failed.
struct PGQueryFailure: Error, CustomStringConvertible {
    /// The server's SQLSTATE, when it sent one.
    var sqlState: SQLState?
    var message: String
    /// True when the connection broke (server gone, network down).
    var connectionLost: Bool
    /// When the connection broke with a transaction open: how long that transaction had sat idle
    /// before this statement was sent.
    var idleInTransaction: Duration? = nil

    var description: String { message }
}
