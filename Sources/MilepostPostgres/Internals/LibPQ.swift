import Glibc
import MilepostSystem

/// libpq (the PostgreSQL client library), loaded with `dlopen` the first time a `postgres://` store
/// opens a connection — never before, and never linked: the `milepost` binary does not depend on
/// libpq (nor on the TLS, Kerberos and LDAP libraries libpq pulls in), so a host without it runs
/// file-store manifests, and a no-op `run` does not pay for loading them.
///
/// The functions are declared here with the C signatures of `libpq-fe.h` (ABI of `libpq.so.5`,
/// stable since PostgreSQL 8.0); the constants are that header's enum values.
struct LibPQ: @unchecked Sendable {
    /// The library, and what a host without it is told to install.
    static let name = SharedLibrary.Name(
        title: "the PostgreSQL client library", soname: "libpq.so.5", variable: "MILEPOST_LIBPQ", packages: "Debian/Ubuntu: apt-get install libpq5; RHEL/Fedora: dnf install libpq")

    /// The loaded library, or why it could not be loaded. Loaded once, on first use.
    static let shared: Result<LibPQ, SharedLibrary.Failure> = load(name)

    // MARK: - Constants of libpq-fe.h

    /// `ConnStatusType`.
    static let connectionOK: Int32 = 0
    /// `ExecStatusType`.
    static let emptyQuery: Int32 = 0
    static let commandOK: Int32 = 1
    static let tuplesOK: Int32 = 2
    /// `PGTransactionStatusType`: in a transaction block, and in a failed one.
    static let transactionInBlock: Int32 = 2
    static let transactionInFailedBlock: Int32 = 3
    /// `PG_DIAG_SQLSTATE`.
    static let diagnosticSQLState = Int32(UInt8(ascii: "C"))

    // MARK: - Functions (PGconn *, PGresult * and PGcancel * are opaque pointers)

    typealias Text = UnsafePointer<CChar>
    typealias Texts = UnsafePointer<Text?>

    let connectdbParams: @convention(c) (Texts?, Texts?, Int32) -> OpaquePointer?
    let status: @convention(c) (OpaquePointer?) -> Int32
    let finish: @convention(c) (OpaquePointer?) -> Void
    let backendPID: @convention(c) (OpaquePointer?) -> Int32
    let transactionStatus: @convention(c) (OpaquePointer?) -> Int32
    let errorMessage: @convention(c) (OpaquePointer?) -> Text?
    let host: @convention(c) (OpaquePointer?) -> Text?
    let port: @convention(c) (OpaquePointer?) -> Text?
    let db: @convention(c) (OpaquePointer?) -> Text?
    let user: @convention(c) (OpaquePointer?) -> Text?
    let getCancel: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let freeCancel: @convention(c) (OpaquePointer?) -> Void
    let cancel: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    let exec: @convention(c) (OpaquePointer?, Text?) -> OpaquePointer?
    /// `PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)`.
    let execParams: @convention(c) (
        OpaquePointer?, Text?, Int32, UnsafePointer<UInt32>?, Texts?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> OpaquePointer?
    let clear: @convention(c) (OpaquePointer?) -> Void
    let resultStatus: @convention(c) (OpaquePointer?) -> Int32
    let ntuples: @convention(c) (OpaquePointer?) -> Int32
    let nfields: @convention(c) (OpaquePointer?) -> Int32
    let getisnull: @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    let getvalue: @convention(c) (OpaquePointer?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let resultErrorField: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutablePointer<CChar>?
    let resultErrorMessage: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?

    /// Opens `file` and resolves every function; the handle is never closed (the process keeps it).
    static func load(_ name: SharedLibrary.Name) -> Result<LibPQ, SharedLibrary.Failure> {
        do throws(SharedLibrary.Failure) {
            let library = try SharedLibrary(name)
            func symbol<Function>(_ name: String) throws(SharedLibrary.Failure) -> Function { try library.function(name) }
            return .success(LibPQ(
                connectdbParams: try symbol("PQconnectdbParams"), status: try symbol("PQstatus"),
                finish: try symbol("PQfinish"), backendPID: try symbol("PQbackendPID"),
                transactionStatus: try symbol("PQtransactionStatus"),
                errorMessage: try symbol("PQerrorMessage"),
                host: try symbol("PQhost"), port: try symbol("PQport"), db: try symbol("PQdb"), user: try symbol("PQuser"),
                getCancel: try symbol("PQgetCancel"), freeCancel: try symbol("PQfreeCancel"), cancel: try symbol("PQcancel"),
                exec: try symbol("PQexec"), execParams: try symbol("PQexecParams"), clear: try symbol("PQclear"),
                resultStatus: try symbol("PQresultStatus"), ntuples: try symbol("PQntuples"),
                nfields: try symbol("PQnfields"), getisnull: try symbol("PQgetisnull"), getvalue: try symbol("PQgetvalue"),
                resultErrorField: try symbol("PQresultErrorField"),
                resultErrorMessage: try symbol("PQresultErrorMessage")))
        } catch {
            return .failure(error)
        }
    }
}
