import FoundationEssentials
public import Milepost
import MilepostSystem
import SystemPackage

/// The SQLite store (`--store sqlite:PATH`): the same state, checkpoints and journal as the file
/// store, in tables of one SQLite database file — the application's own database or one of its
/// own. See docs/store.md for the tables and guarantees.
///
/// The lock is the file store's: a `flock(2)` on `PATH.milepost-lock` beside the database, which
/// dies with its holder. The database runs in WAL mode with `synchronous=FULL`, so every
/// checkpoint is durable when `commit` returns, and readers (`status`, the pre-start fast path)
/// never wait for a running step.
///
/// ```swift
/// let store = SQLiteStore(path: "/var/lib/shop/shop.db")
/// let report = try await Runner(store: store).run(to: Version("2.7")) { try Manifest.load(…) }
/// ```
public struct SQLiteStore: MilepostStore {
    /// The database file's path.
    public let path: String

    /// A store in the database file at `path` (created on the first write, never by a read).
    public init(path: String) {
        self.path = path
    }

    /// The URL scheme of `--store sqlite:PATH`.
    public static let scheme = "sqlite"

    /// True for the specs this store takes: those starting with `sqlite:`.
    public static func accepts(_ spec: String) -> Bool { spec.hasPrefix(scheme + ":") }

    /// The store a `--store` value names: `sqlite:PATH` (relative to the working directory, or
    /// absolute) or `sqlite:///ABSOLUTE-PATH`; nil when `spec` is not `sqlite:` or names no path.
    public init?(spec: String) {
        guard Self.accepts(spec) else { return nil }
        var rest = spec.dropFirst(Self.scheme.count + 1)
        if rest.hasPrefix("///") { rest = rest.dropFirst(2) } else if rest.hasPrefix("//") { return nil }
        guard !rest.isEmpty else { return nil }
        self.init(path: String(rest))
    }

    public var location: String { Self.scheme + ":" + PathText.readable(path) }
    public var kind: String { "sqlite" }

    public var scriptDialect: ScriptDialect? { .sqlite }
    /// `sqlite:` and the database's canonical path (`CanonicalPath`): what its lock is keyed on.
    public var identity: String { Self.scheme + ":" + CanonicalPath.of(path) }

    /// The lock file beside the database as its canonical path names it: `DIRECTORY/NAME.milepost-lock`.
    /// Every spelling of the path (relative or absolute, through a symbolic link to the database or
    /// to its directory) takes this one lock, so one database has one lock.
    var lockFile: SidecarLock {
        let canonical = CanonicalPath.of(path)  // absolute: it has a slash
        let name = canonical.lastIndex(of: "/").map { canonical[canonical.index(after: $0)...] } ?? canonical[...]
        return SidecarLock(directory: PathText.directory(of: canonical), name: name + ".milepost-lock")
    }

    // MARK: - Reading (creates nothing)

    /// One row, read on a read-only connection.
    public func readState() async throws -> StoredState? {
        try reading { connection throws(StoreError) in try SQLiteSchema.readState(on: connection) }
    }

    /// `readStateHeadSynchronously()`.
    public var stateHeadReader: StateHeadReader? { StateHeadReader(readStateHeadSynchronously) }

    /// The state row's head (`stateHeadReader`): the pre-start fast path's one small read.
    package func readStateHeadSynchronously() throws -> StoredStateHead? {
        try reading { connection throws(StoreError) in try SQLiteSchema.readStateHead(on: connection) }
    }

    public func readJournal() async throws -> [JournalRecord] {
        try reading { connection throws(StoreError) in try SQLiteSchema.journal(last: nil, on: connection) } ?? []
    }

    /// Reads only the last `count` rows.
    public func readJournal(last count: Int) async throws -> [JournalRecord] {
        guard count > 0 else { return [] }
        return try reading { connection throws(StoreError) in try SQLiteSchema.journal(last: count, on: connection) } ?? []
    }

    public func lockHolder() async throws -> LockHolder? {
        try lockFile.holder()
    }

    /// Runs `body` on a read-only connection; nil when the database file does not exist.
    private func reading<Result>(_ body: (SQLiteConnection) throws(StoreError) -> Result?) throws(StoreError) -> Result? {
        guard FileCalls.exists(path) else { return nil }
        return try body(try SQLiteConnection.open(path: path, location: location, readOnly: true))
    }

    // MARK: - Locking

    /// Takes the lock (`lockFile`, waiting up to `timeout`) and records `holder` in it, then opens
    /// the database (created owner-only when missing), switches it to WAL mode, creates Milepost's
    /// tables if needed and reads the state row, which every checkpoint of this holder checks
    /// first (`SQLiteDialect`, the fence of `LockedSQLiteStore`).
    public func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore {
        let lock = try await lockFile.acquire(timeout: timeout, location: location, holder: holder)
        do {
            try createOwnerOnly()
            let connection = try SQLiteConnection.open(path: path, location: location, readOnly: false)
            try SQLiteSchema.prepare(connection)
            let seen = try SQLiteSchema.stateText(on: connection)
            return LockedSQLiteStore(
                dialect: SQLiteDialect(lock: lock, location: location), connection: connection,
                fence: SQLiteDialect.SeenState(json: seen), run: holder.run, heartbeat: nil)
        } catch {
            lock.release()
            throw error
        }
    }

    /// Creates the database file owner-only (0600, like the file store's files) when it does not
    /// exist, before SQLite opens it: SQLite creates its WAL and shared-memory files with the
    /// database's permissions.
    private func createOwnerOnly() throws(StoreError) {
        do {
            let descriptor = try FileDescriptor.open(
                FilePath(path), .readWrite, options: [.create], permissions: .ownerReadWrite, retryOnInterrupt: true)
            try descriptor.close()
        } catch {
            throw .io(location: location, reason: .system(call: "open", errno: error as? Errno ?? .ioError))
        }
    }
}

