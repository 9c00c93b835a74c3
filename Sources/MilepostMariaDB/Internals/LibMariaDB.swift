import Glibc
import MilepostSystem

/// The MariaDB client library (Connector/C, `libmariadb.so.3`, Debian `libmariadb3`), loaded with
/// `dlopen` the first time a `mysql://` store opens a connection — never before, and never linked:
/// the `milepost` binary does not depend on it, so a host without it runs the other stores, and a
/// no-op `run` does not pay for loading it. (Linking it through a system-library target, as
/// `CSQLite` does libsqlite3, would make every host install it and every start load it.)
///
/// The few functions used are declared here with the C signatures of `mysql.h` (Connector/C 3,
/// ABI of `libmariadb.so.3`, which also speaks to MySQL servers); the constants are that header's.
struct LibMariaDB: @unchecked Sendable {
    /// The library, and what a host without it is told to install.
    static let name = SharedLibrary.Name(
        title: "the MariaDB client library", soname: "libmariadb.so.3", variable: "MILEPOST_LIBMARIADB", packages: "Debian/Ubuntu: apt-get install libmariadb3; RHEL/Fedora: dnf install mariadb-connector-c")

    /// The loaded library, or why it could not be loaded. Loaded once, on first use.
    static let shared: Result<LibMariaDB, SharedLibrary.Failure> = load(name)

    // MARK: - Constants of mysql.h and mariadb_com.h

    /// `enum mysql_option`.
    static let optionConnectTimeout: Int32 = 0
    static let optionCharsetName: Int32 = 7
    /// `CLIENT_FOUND_ROWS` (an UPDATE reports the rows it matched, not only those it changed) and
    /// `CLIENT_MULTI_STATEMENTS` (a step's script may hold several statements).
    static let clientFoundRows: UInt = 2
    static let clientMultiStatements: UInt = 1 << 16
    /// `enum mariadb_value`: `MARIADB_CONNECTION_SERVER_STATUS`.
    static let valueServerStatus: Int32 = 30
    /// `SERVER_STATUS_IN_TRANS`.
    static let serverStatusInTransaction: UInt32 = 1

    // MARK: - Functions (MYSQL * and MYSQL_RES * are opaque pointers)

    typealias Text = UnsafePointer<CChar>

    let initialize: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let options: @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?) -> Int32
    /// `mysql_real_connect(mysql, host, user, passwd, db, port, unix_socket, clientflag)`.
    let realConnect: @convention(c) (OpaquePointer?, Text?, Text?, Text?, Text?, UInt32, Text?, UInt) -> OpaquePointer?
    let close: @convention(c) (OpaquePointer?) -> Void
    let realQuery: @convention(c) (OpaquePointer?, Text?, UInt) -> Int32
    let storeResult: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let nextResult: @convention(c) (OpaquePointer?) -> Int32
    let fieldCount: @convention(c) (OpaquePointer?) -> UInt32
    let numFields: @convention(c) (OpaquePointer?) -> UInt32
    let fetchRow: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    let fetchLengths: @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UInt>?
    let freeResult: @convention(c) (OpaquePointer?) -> Void
    let affectedRows: @convention(c) (OpaquePointer?) -> UInt64
    let errno: @convention(c) (OpaquePointer?) -> UInt32
    let error: @convention(c) (OpaquePointer?) -> Text?
    let sqlState: @convention(c) (OpaquePointer?) -> Text?
    let threadID: @convention(c) (OpaquePointer?) -> UInt
    /// `mysql_real_escape_string(mysql, to, from, length)`.
    let realEscapeString: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Text?, UInt) -> UInt
    /// `mariadb_get_infov(mysql, value, arg)` (variadic in C; called with its one fixed argument).
    let getInfo: @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Int8

    /// Opens `file` and resolves every function; the handle is never closed (the process keeps it).
    static func load(_ name: SharedLibrary.Name) -> Result<LibMariaDB, SharedLibrary.Failure> {
        do throws(SharedLibrary.Failure) {
            let library = try SharedLibrary(name)
            func symbol<Function>(_ name: String) throws(SharedLibrary.Failure) -> Function { try library.function(name) }
            return .success(LibMariaDB(
                initialize: try symbol("mysql_init"), options: try symbol("mysql_options"),
                realConnect: try symbol("mysql_real_connect"), close: try symbol("mysql_close"),
                realQuery: try symbol("mysql_real_query"), storeResult: try symbol("mysql_store_result"),
                nextResult: try symbol("mysql_next_result"), fieldCount: try symbol("mysql_field_count"),
                numFields: try symbol("mysql_num_fields"), fetchRow: try symbol("mysql_fetch_row"),
                fetchLengths: try symbol("mysql_fetch_lengths"), freeResult: try symbol("mysql_free_result"),
                affectedRows: try symbol("mysql_affected_rows"), errno: try symbol("mysql_errno"),
                error: try symbol("mysql_error"), sqlState: try symbol("mysql_sqlstate"),
                threadID: try symbol("mysql_thread_id"), realEscapeString: try symbol("mysql_real_escape_string"),
                getInfo: try symbol("mariadb_get_infov")))
        } catch {
            return .failure(error)
        }
    }
}
