import CLibPQ
import Dispatch
import Foundation

/// One libpq connection (`PGconn`). libpq blocks, so every call runs on the connection's own
/// serial queue, off Swift's cooperative thread pool; the queue is also what makes the
/// connection safe to share between tasks (hence `@unchecked Sendable`).
final class PGConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Sends a cancel request for the running query; callable from any thread (`PQcancel`).
    private let canceller: OpaquePointer?
    private let queue = DispatchQueue(label: "milepost.postgres.connection")

    /// The server process serving this connection (`PQbackendPID`).
    let backendPID: Int32

    private init(handle: OpaquePointer) {
        self.handle = handle
        self.canceller = PQgetCancel(handle)
        self.backendPID = PQbackendPID(handle)
    }

    deinit {
        if let canceller { PQfreeCancel(canceller) }
        PQfinish(handle)
    }

    /// Connects with `PQconnectdbParams` (keywords in order, `dbname` expanded as a connection string).
    /// - throws: `PGConnectFailure` naming host, port, database and user, never the password.
    static func connect(_ parameters: [(String, String)]) async throws(PGConnectFailure) -> PGConnection {
        let result: Result<PGConnection, PGConnectFailure> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: connectNow(parameters))
            }
        }
        return try result.get()
    }

    private static func connectNow(_ parameters: [(String, String)]) -> Result<PGConnection, PGConnectFailure> {
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
                        PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 1)
                    }
                }
            }
        }
        guard let handle else { return .failure(PGConnectFailure(target: "?", message: "out of memory")) }
        guard PQstatus(handle) == CONNECTION_OK else {
            let failure = PGConnectFailure(
                target: "host \(text(PQhost(handle))) port \(text(PQport(handle))) "
                    + "database \(text(PQdb(handle))) user \(text(PQuser(handle)))",
                message: text(PQerrorMessage(handle)))
            PQfinish(handle)
            return .failure(failure)
        }
        return .success(PGConnection(handle: handle))
    }

    // MARK: - Queries

    /// Runs one statement with text parameters (`PQexecParams`), or a script of several
    /// statements when there are no parameters (`PQexec`). Cancelling the task cancels the query.
    /// - returns: The rows, each column as text or nil for NULL.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) async throws(PGQueryFailure) -> [[String?]] {
        let result: Result<[[String?]], PGQueryFailure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.executeNow(sql, parameters)) }
            }
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// Asks the server to cancel the statement in progress, if any.
    func cancel() {
        guard let canceller else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = PQcancel(canceller, &buffer, Int32(buffer.count))
    }

    /// True while the connection is usable (`PQstatus`), as far as libpq knows.
    var isOpen: Bool {
        queue.sync { PQstatus(handle) == CONNECTION_OK }
    }

    /// True while a transaction block is open on this connection (`PQtransactionStatus`).
    var inTransaction: Bool {
        queue.sync { PQtransactionStatus(handle) != PQTRANS_IDLE }
    }

    private func executeNow(_ sql: String, _ parameters: [String?]) -> Result<[[String?]], PGQueryFailure> {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(handle, sql)
        } else {
            var values = parameters.map { $0.map { strdup($0) } ?? nil }
            defer { for pointer in values { free(pointer) } }
            result = values.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { pointers in
                    PQexecParams(handle, sql, Int32(parameters.count), nil, pointers.baseAddress, nil, nil, 0)
                }
            }
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return .success([])
        case PGRES_TUPLES_OK:
            let rows = Int(PQntuples(result))
            let columns = Int(PQnfields(result))
            return .success((0..<rows).map { row in
                (0..<columns).map { column in
                    PQgetisnull(result, Int32(row), Int32(column)) == 1
                        ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
                }
            })
        default:
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.text(result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(handle))
            return .failure(PGQueryFailure(
                sqlState: sqlState, message: message.isEmpty ? Self.text(PQerrorMessage(handle)) : message,
                connectionLost: PQstatus(handle) != CONNECTION_OK))
        }
    }

    /// A libpq string, trimmed of the trailing newline libpq puts on messages.
    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why a connection could not be opened.
struct PGConnectFailure: Error {
    /// `host H port P database D user U`, as libpq resolved them (no password).
    var target: String
    var message: String
}

/// Why a statement failed.
struct PGQueryFailure: Error, CustomStringConvertible {
    /// The five-character SQLSTATE, when the server sent one.
    var sqlState: String?
    var message: String
    /// True when the connection broke (server gone, network down).
    var connectionLost: Bool

    var description: String { message }
}
