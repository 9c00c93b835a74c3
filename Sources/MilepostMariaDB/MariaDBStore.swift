public import Milepost

/// The MariaDB/MySQL store (`--store mysql://user:password@host:port/database`, or `mariadb://…`):
/// the same state, checkpoints and journal as the file store, in InnoDB tables of the URL's
/// database, shared by every replica that connects to it. The lock is a lease row renewed by a
/// heartbeat, with a fencing generation every checkpoint checks — not `GET_LOCK`, which Galera and
/// Percona XtraDB Cluster do not replicate. See docs/store.md.
///
/// The client library (`libmariadb.so.3`) is loaded when the store is first used, never linked.
///
/// ```swift
/// let store = MariaDBStore(url: "mysql://app:secret@db.internal:3306/shop")
/// let report = try await Runner(store: store).run(to: Version("2.7")) { try Manifest.load(…) }
/// ```
public struct MariaDBStore: MilepostStore {
    let settings: MariaDBSettings

    /// A store reached through `url`: `mysql://` or `mariadb://`, then `user:password@host:port/database`
    /// (port 3306 by default); `?socket=PATH` connects through a Unix socket, `?milepost_lease=30s`
    /// sets the lease. Nothing is contacted until a method is called.
    public init(url: String) {
        settings = MariaDBSettings(url: url)
    }

    /// The URL schemes this store takes: `mysql://…` and `mariadb://…`.
    public static let schemes = ["mysql", "mariadb"]

    /// True for the URLs this store takes: those starting with one of `schemes` and a colon.
    public static func accepts(_ spec: String) -> Bool {
        schemes.contains { spec.hasPrefix("\($0):") }
    }

    /// The URL without its password.
    public var location: String { settings.location }
    public var kind: String { "mariadb" }

    public var scriptDialect: ScriptDialect? { .mariadb }
    /// The database holding the tables.
    public var database: String { settings.database }

    // MARK: - Reading (creates nothing)

    public func readState() async throws -> StoredState? {
        try await reading { connection throws(StoreError) in try await MariaDBSchema.readState(on: connection) }
    }

    /// `readStateHeadSynchronously()`.
    public var stateHeadReader: StateHeadReader? { StateHeadReader(readStateHeadSynchronously) }

    /// The state's head (`stateHeadReader`), for the pre-start fast path of a fleet's replicas: one
    /// connection and one query on the calling thread, no lock. Nil — the full path, which says
    /// what is wrong — when the URL cannot be used, the server cannot be reached (within
    /// `StateHeadReader.connectTimeoutSeconds`), nothing is stored or the scan of the state cannot
    /// vouch for it.
    package func readStateHeadSynchronously() -> StoredStateHead? {
        guard settings.refusal == nil,
              case .success(let connection?) = MariaDBConnection.connectNow(
                  settings, database: true, timeoutSeconds: UInt32(StateHeadReader.connectTimeoutSeconds))
        else { return nil }
        return MariaDBSchema.readStateHeadNow(on: connection)
    }

    public func readJournal() async throws -> [JournalRecord] {
        try await reading { connection throws(StoreError) in try await MariaDBSchema.journal(last: nil, on: connection) } ?? []
    }

    public func readJournal(last count: Int) async throws -> [JournalRecord] {
        guard count > 0 else { return [] }
        return try await reading { connection throws(StoreError) in try await MariaDBSchema.journal(last: count, on: connection) } ?? []
    }

    public func lockHolder() async throws -> LockHolder? {
        try await reading { connection throws(StoreError) in try await MariaDBLease.holder(on: connection) }
    }

    /// Runs `body` on a new connection; nil when the database does not exist yet.
    private func reading<Result>(_ body: (MariaDBConnection) async throws(StoreError) -> Result?) async throws(StoreError) -> Result? {
        guard let connection = try await MariaDBConnection.openIfCreated(settings) else { return nil }
        return try await body(connection)
    }

    // MARK: - Locking

    /// Creates the database and tables if needed, takes the lease on a connection of its own
    /// (renewed by a `LeaseKeeper`) and reads the state on a second one, the one checkpoints use.
    public func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore {
        let data = try await MariaDBSchema.create(settings)
        let lockConnection = try await MariaDBConnection.open(settings)
        let lease = MariaDBLease(duration: settings.lease)
        let taken = try await lease.acquire(on: lockConnection, timeout: timeout, holder: holder)
        let settings = settings
        let heartbeat = LeaseKeeper<MariaDBConnection>(
            lease: lease, run: holder.run, location: settings.location, starting: lockConnection, taken: taken.sent,
            connect: { try await MariaDBConnection.open(settings) })
        let locked = LockedMariaDBStore(
            dialect: MariaDBDialect(settings: settings), connection: data, fence: taken.generation, run: holder.run,
            heartbeat: heartbeat)
        do {
            _ = try await locked.readState()
        } catch {
            await locked.release()
            throw error
        }
        return locked
    }
}
