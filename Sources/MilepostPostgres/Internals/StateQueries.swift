import FoundationEssentials
import Milepost
import MilepostSystem

/// The SQL that reads and writes the state, the completed steps and the journal.
struct StateQueries: Sendable {
    let schema: PostgresSchema
    let location: String

    /// The stored state (nil when nothing is stored or the tables do not exist yet) and the
    /// generation it was read at (nil when the tables do not exist).
    func read(on session: PostgresSession) async throws -> (state: StoredState?, generation: Int64?) {
        guard let rows = try await session.queryIfCreated(readSQL), let row = rows.first else { return (nil, nil) }
        let generation = row.int64(0)
        if row.isTrue(2) { return (nil, generation) }
        return (try StoredState.decode(json: Array((row.text(1) ?? "").utf8), location: location), generation)
    }

    /// The head of the stored state (`StoredStateHead`), scanned from the JSON `read` decodes, in
    /// one query on `connection` on the calling thread (the pre-start fast path); nil when there is
    /// no state, the query failed or the scan cannot vouch for it (the full path then says why).
    func readHeadNow(on connection: PGConnection) -> StoredStateHead? {
        guard case .success(let rows) = connection.executeNow(readSQL, []), let row = rows.first, !row.isTrue(2),
              let json = row.text(1)
        else { return nil }
        return StoredStateHead(json: Array(json.utf8))
    }

    /// The generation, the state as the JSON of `state.json` (its completed steps aggregated) and
    /// whether nothing is stored yet: one row.
    private var readSQL: String {
        """
            SELECT s.generation, json_build_object(
                'format', s.format, 'app', s.app, 'version', s.version,
                'completed', COALESCE((
                    SELECT json_agg(json_build_object(
                        'id', c.id, 'at', c.at, 'run', c.run, 'fingerprint', c.fingerprint, 'via', c.via)
                        ORDER BY c.position)
                    FROM \(schema.completedSteps) c), '[]'::json),
                'in_progress', s.in_progress, 'failed', s.failed, 'updated_at', s.updated_at,
                -- Through the row's JSON: a store created before reverts (or digests, or set-aside marks) has no such column yet.
                'reverting', to_jsonb(s) -> 'reverting', 'planned_with', to_jsonb(s) -> 'planned_with',
                'set_aside', to_jsonb(s) -> 'set_aside', 'floor', to_jsonb(s) -> 'floor')::text,
                s.version IS NULL
            FROM \(schema.state) s
            """
    }

    /// Every journal record, oldest first; none when the tables do not exist yet.
    func journal(on session: PostgresSession) async throws -> [JournalRecord] {
        try records(try await session.queryIfCreated("SELECT record::text FROM \(schema.journal) ORDER BY seq") ?? [])
    }

    /// The last `count` journal records, oldest first; none when the tables do not exist yet.
    func journal(last count: Int, on session: PostgresSession) async throws -> [JournalRecord] {
        let sql = """
            SELECT record::text FROM (
                SELECT seq, record FROM \(schema.journal) ORDER BY seq DESC LIMIT $1::bigint
            ) last ORDER BY seq
            """
        return try records(try await session.queryIfCreated(sql, [String(count)]) ?? [])
    }

    private func records(_ rows: [SQLRow]) throws -> [JournalRecord] {
        let decoder = JSONDecoder()
        return try rows.map { row in
            do {
                return try decoder.decode(JournalRecord.self, from: Data((row.text(0) ?? "").utf8))
            } catch {
                throw StoreError.io(
                    location: location, reason: .malformed("a journal row is not a journal record: \(DecodingError.summary(of: error))"))
            }
        }
    }

    /// Writes `state` and appends `records` if the generation still is `generation`, and bumps it.
    /// `completedFrom` is the index in `state.completed` of the first completed step to insert (the
    /// earlier ones are stored already). New rows are numbered after the highest stored position,
    /// not from the row count: a row deleted by hand leaves a gap, never a collision. One statement,
    /// so it is atomic on its own.
    /// - returns: The new generation, or nil when the fence refused the write.
    func write(
        _ state: StoredState, completedFrom: Int, journal records: [JournalRecord], ifGeneration generation: Int64,
        on session: PostgresSession
    ) async throws -> Int64? {
        let sql = """
            WITH fenced AS (
                UPDATE \(schema.state) SET generation = generation + 1, format = $2::integer, app = $3,
                    version = $4, in_progress = $5::jsonb, failed = $6::jsonb, updated_at = $7, reverting = $10::jsonb,
                    planned_with = $11::jsonb, set_aside = $12::jsonb, floor = $13::jsonb
                WHERE generation = $1::bigint
                RETURNING generation
            ), completed AS (
                INSERT INTO \(schema.completedSteps) (position, id, at, run, fingerprint, via)
                SELECT last.position + n, e->>'id', e->>'at', e->>'run', e->>'fingerprint', e->>'via'
                FROM json_array_elements($8::json) WITH ORDINALITY AS t(e, n),
                    (SELECT COALESCE(max(position), -1) AS position FROM \(schema.completedSteps)) last
                WHERE EXISTS (SELECT 1 FROM fenced)
            ), journal AS (
                \(insertJournal(from: "$9"))
                WHERE EXISTS (SELECT 1 FROM fenced)
                ORDER BY n
            )
            SELECT generation FROM fenced
            """
        let rows = try await session.query(sql, [
            String(generation), String(state.format), state.app, state.version.text,
            state.inProgress.map(Self.json), state.failed.map(Self.json), state.updatedAt.text,
            Self.json(Array(state.completed.dropFirst(completedFrom))), Self.json(records),
            state.reverting.map(Self.json), state.plannedWith.map(Self.json),
            state.setAside.isEmpty ? nil : Self.json(state.setAside), state.floor.map(Self.json),
        ])
        return rows.first?.int64(0)
    }

    /// Appends `records` if the generation still is `generation`.
    /// - returns: False when the fence refused the write.
    func append(_ records: [JournalRecord], ifGeneration generation: Int64, on session: PostgresSession) async throws -> Bool {
        let sql = """
            \(insertJournal(from: "$2"))
            WHERE EXISTS (SELECT 1 FROM \(schema.state) WHERE generation = $1::bigint)
            ORDER BY n
            RETURNING seq
            """
        return try await session.query(sql, [String(generation), Self.json(records)]).count == records.count
    }

    /// Deletes the completed steps, before they are written again from the first.
    func clearCompleted(on session: PostgresSession) async throws {
        try await session.query("DELETE FROM \(schema.completedSteps)")
    }

    private func insertJournal(from parameter: String) -> String {
        """
        INSERT INTO \(schema.journal) (time, run, event, step, record)
            SELECT e->>'time', e->>'run', e->>'event', e->>'step', e::jsonb
            FROM json_array_elements(\(parameter)::json) WITH ORDINALITY AS t(e, n)
        """
    }

    static func json(_ value: some Encodable) -> String {
        // Plain strings and numbers always encode.
        String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
    }
}
