import Milepost
import MilepostSystem

/// The store's tables in one schema (default `milepost`), and the advisory-lock keys derived
/// from its name. See docs/postgres.md for the tables.
struct PostgresSchema: Sendable {
    let name: String

    /// The schema as a quoted SQL identifier.
    var quoted: String { "\"" + name.replacing(scalar: "\"", with: "\"\"") + "\"" }
    var state: String { quoted + ".state" }
    var completedSteps: String { quoted + ".completed_steps" }
    var journal: String { quoted + ".journal" }
    /// The lock row: who holds the store's lock, of which kind, and until when for a lease.
    var lease: String { quoted + ".lease" }

    // MARK: - Advisory lock keys

    /// `pg_advisory_lock(int, int)` keys: a Milepost constant, then a hash of the schema name, so
    /// stores in different schemas of one database never wait for each other.
    var runLock: (Int32, Int32) { (0x4D50_4C4B, nameHash) }  // "MPLK"
    /// The lock that serializes creating the schema.
    var setupLock: (Int32, Int32) { (0x4D50_5343, nameHash) }  // "MPSC"

    /// 31-bit FNV-1a of the name: stable across processes and versions (unlike `hashValue`).
    private var nameHash: Int32 {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return Int32(bitPattern: hash & 0x7FFF_FFFF)
    }

    // MARK: - Creating

    /// The `jsonb` columns of `state` added after its first version, in the order they were added:
    /// created on their own when missing (`reverting`: an unfinished revert; `planned_with`: the
    /// digest of the manifest the state was last planned with; `set_aside`: the marks of unfinished
    /// steps that another step ran before; `floor`: the compatibility floor).
    static let addedStateColumns = ["reverting", "planned_with", "set_aside", "floor"]

    /// Creates the schema and its tables unless they exist, and adds the tables and columns a store
    /// made by an earlier version lacks (the lease table; `addedStateColumns`). Safe when many
    /// runners start at once on an empty database and through a transaction-pooling proxy: the check is a read; creation happens in one transaction that
    /// first takes a transaction-scoped advisory lock (so no lock outlives it on a pooled server
    /// connection), checks again and creates what is missing, so one runner creates while the others
    /// find it done. `CREATE SCHEMA` is issued only when the schema is missing, so a schema made by a
    /// DBA needs no CREATE privilege on the database. The set-up lock is waited for as the store's
    /// lock is (polled, up to `timeout`): a runner frozen or cut off inside the set-up holds every
    /// other runner for no longer than their `--lock-timeout`.
    /// - throws: `StoreError.lockTimeout` naming the set-up lock's holder when `timeout` passes.
    func create(on session: PostgresSession, timeout: Duration) async throws {
        if try await !missing(on: session).contains(true) { return }
        try await session.transaction {
            let keys = [String(setupLock.0), String(setupLock.1)]
            let locked = try await LockPolling.poll(timeout: timeout) { () async throws -> Bool? in
                try await session.query("SELECT pg_try_advisory_xact_lock($1, $2)", keys)[0].isTrue(0) ? true : nil
            }
            guard locked != nil else {
                throw StoreError.lockTimeout(
                    location: session.location, waited: timeout,
                    holder: try await AdvisoryLock.sessionHolder(keys: keys, recordedIn: nil, on: session))
            }
            let missing = try await missing(on: session)
            if !missing.contains(true) { return }
            if missing[0] {
                let schemaMissing = try await session.query(
                    "SELECT 1 FROM pg_namespace WHERE nspname = $1", [name]).isEmpty
                if schemaMissing { try await session.query("CREATE SCHEMA \(quoted)") }
                try await session.query(ddl)
                return
            }
            if missing[1] { try await session.query(leaseDDL) }
            for (column, isMissing) in zip(Self.addedStateColumns, missing.dropFirst(2)) where isMissing {
                try await session.query("ALTER TABLE \(state) ADD COLUMN \(column) jsonb")
            }
        }
    }

    /// Whether the state table, the lease table and each of `addedStateColumns` are missing (a
    /// column is reported missing when the table is). A scan of `pg_class` with the
    /// statement's snapshot, not `to_regclass`: after the set-up lock is granted inside the
    /// transaction, the catalog caches may not yet show the tables its previous holder committed.
    private func missing(on session: PostgresSession) async throws -> [Bool] {
        let sql = """
            SELECT NOT EXISTS (\(table) AND c.relname = 'state'), NOT EXISTS (\(table) AND c.relname = 'lease')\(
                Self.addedStateColumns.map { column in
                    """
                    , NOT EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                        JOIN pg_namespace n ON n.oid = c.relnamespace
                        WHERE n.nspname = $1 AND c.relname = 'state' AND a.attname = '\(column)' AND NOT a.attisdropped)
                    """
                }.joined())
            """
        let row = try await session.query(sql, [name])[0]
        return row.columns.indices.map(row.isTrue)
    }

    private var table: String {
        "SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1"
    }

    /// The lock row (added in a later version than the other tables: created on its own when missing).
    var leaseDDL: String {
        """
        CREATE TABLE \(lease) (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            kind text,
            run text,
            pid integer,
            host text,
            since text,
            backend_pid integer,
            expires_at timestamptz
        );
        INSERT INTO \(lease) (singleton) VALUES (true);
        """
    }

    /// The tables. `state` has exactly one row, created here; its `version` is NULL until
    /// something is stored. The `state` table is created last: its presence means "all created".
    var ddl: String {
        """
        CREATE TABLE \(completedSteps) (
            position integer PRIMARY KEY,
            id text NOT NULL,
            at text NOT NULL,
            run text NOT NULL,
            fingerprint text NOT NULL,
            via text
        );
        CREATE TABLE \(journal) (
            seq bigserial PRIMARY KEY,
            time text NOT NULL,
            run text NOT NULL,
            event text NOT NULL,
            step text,
            record jsonb NOT NULL
        );
        \(leaseDDL)
        CREATE TABLE \(state) (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            generation bigint NOT NULL DEFAULT 0,
            format integer,
            app text,
            version text,
            in_progress jsonb,
            failed jsonb,
            updated_at text,
            holder jsonb,
            holder_pid integer,
            reverting jsonb,
            planned_with jsonb,
            set_aside jsonb,
            floor jsonb
        );
        INSERT INTO \(state) (singleton) VALUES (true);
        """
    }
}
