import Glibc
import MilepostSystem

/// libsqlite3, loaded with `dlopen` the first time an `sqlite:` store or an `sqlite` step opens a
/// database — never before, and never linked: a `milepost` binary that runs a file or PostgreSQL
/// store does not load it, so no run pays the dynamic loader for it at start.
///
/// The functions are declared here with the C signatures of `sqlite3.h` (ABI of
/// `libsqlite3.so.0`, stable across SQLite 3); the constants are that header's values.
struct LibSQLite: @unchecked Sendable {
    /// The library, and what a host without it is told to install.
    static let name = SharedLibrary.Name(
        title: "the SQLite library", soname: "libsqlite3.so.0", packages: "Debian/Ubuntu: apt-get install libsqlite3-0; RHEL/Fedora: dnf install sqlite-libs")

    /// The loaded library, or why it could not be loaded. Loaded once, on first use.
    static let shared: Result<LibSQLite, SharedLibrary.Failure> = load(name)

    // MARK: - Constants of sqlite3.h

    static let ok: Int32 = 0
    static let row: Int32 = 100
    static let done: Int32 = 101
    static let openReadOnly: Int32 = 0x0000_0001
    static let openReadWrite: Int32 = 0x0000_0002
    static let openCreate: Int32 = 0x0000_0004
    static let openNoMutex: Int32 = 0x0000_8000
    /// `SQLITE_TRANSIENT`, the destructor `(sqlite3_destructor_type)-1`: SQLite copies the value.
    static var transient: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: -1) }

    // MARK: - Functions (sqlite3 * and sqlite3_stmt * are opaque pointers)

    typealias Text = UnsafePointer<CChar>

    let openV2: @convention(c) (Text?, UnsafeMutablePointer<OpaquePointer?>?, Int32, Text?) -> Int32
    let closeV2: @convention(c) (OpaquePointer?) -> Int32
    let errmsg: @convention(c) (OpaquePointer?) -> Text?
    let errstr: @convention(c) (Int32) -> Text?
    let extendedResultCodes: @convention(c) (OpaquePointer?, Int32) -> Int32
    let busyTimeout: @convention(c) (OpaquePointer?, Int32) -> Int32
    let getAutocommit: @convention(c) (OpaquePointer?) -> Int32
    /// `sqlite3_exec(db, sql, callback, argument, errmsg)`; Milepost passes no callback.
    let exec: @convention(c) (OpaquePointer?, Text?, UnsafeRawPointer?, UnsafeMutableRawPointer?,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let prepareV2: @convention(c) (OpaquePointer?, Text?, Int32, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<Text?>?) -> Int32
    let finalize: @convention(c) (OpaquePointer?) -> Int32
    /// `sqlite3_bind_text(statement, index, text, bytes, destructor)`.
    let bindText: @convention(c) (OpaquePointer?, Int32, Text?, Int32, UnsafeRawPointer?) -> Int32
    let bindNull: @convention(c) (OpaquePointer?, Int32) -> Int32
    let step: @convention(c) (OpaquePointer?) -> Int32
    let columnCount: @convention(c) (OpaquePointer?) -> Int32
    let columnText: @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<UInt8>?
    let columnBytes: @convention(c) (OpaquePointer?, Int32) -> Int32

    /// Opens `file` and resolves every function; the handle is never closed (the process keeps it).
    static func load(_ name: SharedLibrary.Name) -> Result<LibSQLite, SharedLibrary.Failure> {
        do throws(SharedLibrary.Failure) {
            let library = try SharedLibrary(name)
            func symbol<Function>(_ name: String) throws(SharedLibrary.Failure) -> Function { try library.function(name) }
            return .success(LibSQLite(
                openV2: try symbol("sqlite3_open_v2"), closeV2: try symbol("sqlite3_close_v2"),
                errmsg: try symbol("sqlite3_errmsg"), errstr: try symbol("sqlite3_errstr"),
                extendedResultCodes: try symbol("sqlite3_extended_result_codes"),
                busyTimeout: try symbol("sqlite3_busy_timeout"), getAutocommit: try symbol("sqlite3_get_autocommit"),
                exec: try symbol("sqlite3_exec"), free: try symbol("sqlite3_free"),
                prepareV2: try symbol("sqlite3_prepare_v2"), finalize: try symbol("sqlite3_finalize"),
                bindText: try symbol("sqlite3_bind_text"), bindNull: try symbol("sqlite3_bind_null"),
                step: try symbol("sqlite3_step"), columnCount: try symbol("sqlite3_column_count"),
                columnText: try symbol("sqlite3_column_text"), columnBytes: try symbol("sqlite3_column_bytes")))
        } catch {
            return .failure(error)
        }
    }
}
