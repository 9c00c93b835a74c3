public import Milepost

/// The PostgreSQL store (`--store postgres://…`): the same state, checkpoints and journal as the
/// file store, in tables of one schema, shared by every replica that connects to the database.
/// See docs/postgres.md for the tables, the privileges and the locking and fencing model.
///
/// ```swift
/// let store = PostgresStore(url: "postgres://app@db.internal/app?sslmode=require")
/// let report = try await Runner(store: store).run(to: Version("2.7")) { try Manifest.load(…) }
/// ```
public struct PostgresStore: MilepostStore {
    let settings: ConnectionSettings

    /// A store reached through a libpq URL (`postgres://` or `postgresql://`). libpq reads the
    /// `PG*` environment variables, `~/.pgpass`, `sslmode` and the rest as usual. Milepost's own
    /// URL parameter `milepost_schema` names the schema (default `milepost`); `schema` overrides it.
    /// Nothing is contacted until a method is called.
    public init(url: String, schema: String? = nil) {
        settings = ConnectionSettings(url: url, schema: schema)
    }

    /// The URL schemes this store takes: `postgres://…` and `postgresql://…`.
    public static let schemes = ["postgres", "postgresql"]

    /// True for the URLs this store takes: those starting with one of `schemes` and a colon (so
    /// `postgres:/db` reaches libpq and is refused there, never read as a directory).
    public static func accepts(_ spec: String) -> Bool {
        schemes.contains { spec.hasPrefix("\($0):") }
    }

    /// The URL without its password.
    public var location: String { settings.location }
    public var kind: String { "postgres" }

    public var scriptDialect: ScriptDialect? { .postgresql }
    /// The URL without its password, and the schema: two schemas of one database are two stores.
    public var identity: String { "\(location) (schema \(schema))" }
    /// The schema holding the tables.
    public var schema: String { settings.schema }

    var tables: PostgresSchema { PostgresSchema(name: settings.schema) }
    var queries: StateQueries { StateQueries(schema: tables, location: location) }
    var advisoryLock: AdvisoryLock { AdvisoryLock(schema: tables) }

    // MARK: - Reading (creates and modifies nothing)

    public func readState() async throws -> StoredState? {
        try await reading { try await queries.read(on: $0).state }
    }

    /// `readStateHeadSynchronously()`.
    public var stateHeadReader: StateHeadReader? { StateHeadReader(readStateHeadSynchronously) }

    /// The state's head (`stateHeadReader`), for the pre-start fast path of a fleet's replicas: one
    /// connection and one query on the calling thread, no lock (directly or through a connection
    /// pooler in transaction mode alike). Nil — the full path, which says what is wrong — when the
    /// URL cannot be used, the server cannot be reached (within `StateHeadReader.connectTimeout`,
    /// so that an unreachable server costs the full path's wait and little more), nothing is stored
    /// or the scan of the state cannot vouch for it.
    package func readStateHeadSynchronously() -> StoredStateHead? {
        // After `dbname`, so that it overrides the URL's and PGCONNECT_TIMEOUT's.
        let parameters = settings.parameters() + [("connect_timeout", String(StateHeadReader.connectTimeoutSeconds))]
        guard settings.refusal == nil, case .success(let connection) = PGConnection.connectNow(parameters) else { return nil }
        return queries.readHeadNow(on: connection)
    }

    public func readJournal() async throws -> [JournalRecord] {
        try await reading { try await queries.journal(on: $0) }
    }

    public func readJournal(last count: Int) async throws -> [JournalRecord] {
        try await reading { try await queries.journal(last: count, on: $0) }
    }

    public func lockHolder() async throws -> LockHolder? {
        try await reading { try await advisoryLock.holder(on: $0) }
    }

    private func reading<Result: Sendable>(_ body: (PostgresSession) async throws -> Result) async throws -> Result {
        try await body(try await PostgresSession.open(settings))
    }

    /// What a lost lock says behind a connection pooler when its renewal was still waiting.
    static let poolerAdvice = "on the connection pooler, most likely for a server connection: while an sql step runs in "
        + "its transaction a runner needs two server connections at once (one for the step, one for the renewal), so the "
        + "pool (PgBouncer default_pool_size or the database's pool_size) needs at least 2; see docs/postgres.md, What to do when"

    // MARK: - Locking

    /// Chooses the lock (`milepost_lock`, else the lease behind a connection pooler and the session
    /// advisory lock on a direct connection — decided before anything is written), creates the
    /// schema if needed, then takes the lock on a connection of its own (see `AdvisoryLock`,
    /// `LeaseLock`) and reads the state on a second connection, the one checkpoints use.
    public func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore {
        let data = try await PostgresSession.open(settings)
        let pooled = try await data.isBehindPooler()
        if !pooled { try await data.checkClientConnection() }
        try await tables.create(on: data, timeout: timeout)
        let lock = try await PostgresSession.open(settings)
        let kind = LockKind.choose(asked: settings.lock, pooled: pooled)
        let taken: (generation: Int64, sent: ContinuousClock.Instant)
        let renewable: any RenewableLease<PostgresSession>
        switch kind {
        case .session:
            let sent = ContinuousClock.now
            taken = (try await advisoryLock.acquire(on: lock, timeout: timeout, holder: holder), sent)
            renewable = advisoryLock
        case .lease:
            let lease = LeaseLock(schema: tables, duration: settings.lease)
            taken = try await lease.acquire(on: lock, timeout: timeout, holder: holder)
            renewable = lease
        }
        let settings = settings
        let heartbeat = LeaseKeeper<PostgresSession>(
            lease: renewable, run: holder.run, location: settings.location, starting: lock, taken: taken.sent,
            waitingAdvice: pooled ? Self.poolerAdvice : nil, connect: { try await PostgresSession.open(settings) })
        let locked = LockedPostgresStore(
            dialect: PostgresDialect(store: self, kind: kind, lockSession: lock), connection: data, fence: taken.generation,
            run: holder.run, heartbeat: heartbeat)
        do {
            _ = try await locked.readState()
        } catch {
            await locked.release()
            throw error
        }
        return locked
    }
}
