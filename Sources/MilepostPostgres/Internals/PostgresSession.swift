import Milepost
import MilepostSystem

/// A connection to the store's database, with libpq failures turned into `StoreError`s that
/// name the store: a lost connection is `.unreachable` (exit 69), any other failure `.io` (74).
struct PostgresSession: Sendable {
    let connection: PGConnection
    let settings: ConnectionSettings

    var location: String { settings.location }

    /// Opens a connection.
    /// - throws: `StoreError.unreachable` naming host, port, database and user (never the password).
    /// - throws: `StoreError.io` for settings that cannot be used (`ConnectionSettings.refusal`).
    static func open(_ settings: ConnectionSettings) async throws -> PostgresSession {
        if let refusal = settings.refusal {
            throw StoreError.io(location: settings.location, reason: .invalidURL(refusal))
        }
        do {
            return PostgresSession(connection: try await PGConnection.connect(settings.parameters()), settings: settings)
        } catch {
            throw StoreError.unreachable(location: settings.location, reason: .other(error.target.map { "\($0): \(error.message)" } ?? error.message))
        }
    }

    /// Runs one statement (or a parameterless script).
    @discardableResult
    func query(_ sql: String, _ parameters: [String?] = []) async throws -> [SQLRow] {
        do {
            return try await connection.execute(sql, parameters)
        } catch {
            throw storeError(error)
        }
    }

    /// Like `query`, but nil when the schema or a table does not exist yet (nothing was ever stored).
    func queryIfCreated(_ sql: String, _ parameters: [String?] = []) async throws -> [SQLRow]? {
        do {
            return try await connection.execute(sql, parameters)
        } catch where error.sqlState == .invalidSchemaName || error.sqlState == .undefinedTable {
            return nil
        } catch {
            throw storeError(error)
        }
    }

    /// True when a connection pooler (PgBouncer, any mode) is between this client and the server:
    /// the backend pid the connection announced (`PQbackendPID`, from the BackendKeyData message)
    /// is not the pid of the server process running this session's statements — a pooler makes up
    /// its own, since the server connection behind it changes. Asked before anything is written.
    func isBehindPooler() async throws -> Bool {
        try await query("SELECT pg_backend_pid()")[0].int32(0) != connection.backendPID
    }

    /// Makes the server check every second that this client is still there while a statement runs
    /// (PostgreSQL 14 and later; older servers keep running until the statement ends). After a kill
    /// -9 of the runner mid-`sql`-step, the server then aborts the step's statement and rolls its
    /// transaction back at once, instead of holding its locks until the statement would have ended.
    func checkClientConnection() async throws {
        do {
            try await connection.execute("SET client_connection_check_interval = '1s'")
        } catch where error.sqlState == .undefinedObject {
            // An older server without the setting.
        } catch {
            throw storeError(error)
        }
    }

    /// Opens a transaction that the server ends (rolling it back, closing the session) when it sits
    /// idle for longer than the lease (`idle_in_transaction_session_timeout`, set for this
    /// transaction only, so also through a transaction pooler). Milepost never leaves a transaction
    /// idle for more than a moment; a holder frozen inside one (SIGSTOP, a paused VM, a partition)
    /// would otherwise keep its row locks, and every runner after it would wait on them.
    func begin() async throws {
        try await query("BEGIN; SET LOCAL idle_in_transaction_session_timeout = '\(DurationText.milliseconds(settings.lease))ms'")
    }

    /// Runs `body` in a transaction (`begin()`): committed when it returns, rolled back when it throws.
    func transaction<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        try await begin()
        do {
            let result = try await body()
            try await query("COMMIT")
            return result
        } catch {
            await rollback()
            throw error
        }
    }

    /// Rolls back the open transaction, if any. Best effort: a lost connection rolls back by itself.
    func rollback() async {
        _ = try? await connection.execute("ROLLBACK")
    }

    /// `failure` with the likeliest reason the server ended the session, when it broke after the
    /// transaction sat idle for the lease or longer: `begin()`'s idle limit. libpq only says the
    /// server "closed the connection unexpectedly" and that it "probably … terminated abnormally".
    func explained(_ failure: PGQueryFailure) -> PGQueryFailure {
        guard failure.connectionLost, let idle = failure.idleInTransaction, idle >= settings.lease else { return failure }
        var explained = failure
        explained.message = "the server ended the session after it sat idle in its transaction for "
            + "\(DurationText.readable(idle)), longer than the lease (\(LeaseParameter.name)=\(DurationText.format(settings.lease)), "
            + "its idle_in_transaction_session_timeout, which frees the row locks of a frozen holder): a step that runs in "
            + "its checkpoint transaction must not pause that long, nor its process be frozen or starved (or set a longer "
            + "lease) — libpq: \(failure.message)"
        return explained
    }

    func storeError(_ failure: PGQueryFailure) -> StoreError {
        let failure = explained(failure)
        if failure.connectionLost {
            return .unreachable(location: location, reason: "the connection was lost: \(failure.message)")
        }
        return .io(location: location, reason: .database(sqlState: failure.sqlState, message: failure.message))
    }
}
