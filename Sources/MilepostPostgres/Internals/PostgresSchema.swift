/// The store's tables in one schema (default `milepost`), and the advisory-lock keys derived
/// from its name. See docs/postgres.md for the tables.
struct PostgresSchema: Sendable {
    let name: String

    /// The schema as a quoted SQL identifier.
    var quoted: String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    var state: String { quoted + ".state" }
    var completedSteps: String { quoted + ".completed_steps" }
    var journal: String { quoted + ".journal" }

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

    /// Creates the schema and its tables unless they exist. Safe when many runners start at once on
    /// an empty database: the check is a read; creation happens under a session advisory lock, in a
    /// transaction started after the lock is held (so it sees what a previous holder committed), and
    /// one runner creates while the others find it done. `CREATE SCHEMA` is issued only when the
    /// schema is missing, so a schema made by a DBA needs no CREATE privilege on the database.
    func create(on session: PostgresSession) async throws {
        if try await exists(on: session) { return }
        let keys = [String(setupLock.0), String(setupLock.1)]
        try await session.query("SELECT pg_advisory_lock($1, $2)", keys)
        do {
            try await session.transaction {
                if try await exists(on: session) { return }
                let schemaMissing = try await session.query(
                    "SELECT 1 FROM pg_namespace WHERE nspname = $1", [name]).isEmpty
                if schemaMissing { try await session.query("CREATE SCHEMA \(quoted)") }
                try await session.query(ddl)
            }
        } catch {
            _ = try? await session.query("SELECT pg_advisory_unlock($1, $2)", keys)
            throw error
        }
        try await session.query("SELECT pg_advisory_unlock($1, $2)", keys)
    }

    private func exists(on session: PostgresSession) async throws -> Bool {
        try await session.query("SELECT to_regclass($1) IS NOT NULL", [state])[0][0] == "t"
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
            holder_pid integer
        );
        INSERT INTO \(state) (singleton) VALUES (true);
        """
    }
}
