import Foundation
import Milepost
import MilepostSystem
import Testing
@testable import MilepostPostgres

/// What only the PostgreSQL store has: connection settings, its schema, the fence.
@Suite struct PostgresSettingsTests {
    @Test func theLocationNeverShowsAPasswordAndTheSchemaParameterIsMilepostsOwn() {
        let settings = ConnectionSettings(
            url: "postgresql://app:s3cret@db.internal:6432/shop?sslmode=require&password=other&milepost_schema=fleet%20a")
        #expect(settings.location == "postgresql://app@db.internal:6432/shop?sslmode=require")
        #expect(settings.url == "postgresql://app:s3cret@db.internal:6432/shop?sslmode=require&password=other")
        #expect(settings.schema == "fleet a")
        #expect(ConnectionSettings(url: "postgres://db/shop").schema == "milepost")
        #expect(ConnectionSettings(url: "postgres://db/shop?milepost_schema=a", schema: "b").schema == "b")
    }

    /// Taking Milepost's parameter out does not make the URL another: the `/` it held kept the
    /// later `@` from ending a user information, so the URL handed to libpq has that `@` encoded
    /// (before, libpq read `db?password=x&a` as the user name, and the location showed the password).
    /// A parameter's name ends at its first `=` even when a combining mark follows it (split by
    /// Unicode scalar, as the URL is; by `Character`, the name ran on into the value).
    @Test func aParameterNameEndsAtItsEqualsSignBeforeACombiningMark() {
        let settings = ConnectionSettings(url: "postgres://db/shop?milepost_schema=\u{301}s&sslmode=require")
        #expect(settings.schema == "\u{301}s")
        #expect(settings.url == "postgres://db/shop?sslmode=require")
        #expect(StoreURL.parameter("password=\u{7EC}x") == ("password", "\u{7EC}x"))
        #expect(StoreURL.parameter("flag") == ("flag", ""))
    }

    @Test func aRemovedParameterDoesNotMakeTheRestOfTheQueryAUserName() {
        let settings = ConnectionSettings(url: "postgres://db?password=x&milepost_schema=s/t&application_name=a@b")
        #expect(settings.url == "postgres://db?password=x&application_name=a%40b")
        #expect(settings.location == "postgres://db?application_name=a%40b")
        #expect(settings.schema == "s/t")
    }

    @Test func milepostDefaultsComeBeforeTheURLSoTheURLOverridesThem() {
        let parameters = ConnectionSettings(url: "postgres://db/shop?keepalives_idle=30").parameters(environment: [:])
        let keywords = parameters.map(\.0)
        #expect(keywords.last == "dbname")
        #expect(parameters.last?.1 == "postgres://db/shop?keepalives_idle=30")
        #expect(parameters.contains { $0 == ("keepalives_idle", "10") })
        #expect(parameters.contains { $0 == ("keepalives_interval", "5") })
        #expect(parameters.contains { $0 == ("keepalives_count", "3") })
        #expect(parameters.contains { $0 == ("connect_timeout", "10") })
        let name = try? #require(parameters.first { $0.0 == "fallback_application_name" }?.1)
        #expect(name == "milepost \(getpid())@\(ProcessIdentity.host)")
        #expect(!ConnectionSettings(url: "postgres://db").parameters(environment: ["PGCONNECT_TIMEOUT": "3"])
            .contains { $0.0 == "connect_timeout" })
    }

    @Test func anUnreachableServerNamesHostPortDatabaseAndUserButNoPassword() async throws {
        let store = PostgresStore(url: "postgres://fleet:hunter2@127.0.0.1:1/shop")
        let error = try await #require(throws: StoreError.self) { try await store.readState() }
        guard case .unreachable(let location, let reason) = error else {
            Issue.record("expected unreachable, got \(error)")
            return
        }
        #expect(location == "postgres://fleet@127.0.0.1:1/shop")
        #expect(reason.description.hasPrefix("host 127.0.0.1 port 1 database shop user fleet: "), "\(reason)")
        #expect(!error.description.contains("hunter2"))
    }

    @Test(arguments: ["milepost 4242@web-1", "milepost 7@a@b", "psql", "milepost x@y"])
    func applicationNamesNameTheirProcess(name: String) {
        let parsed = AdvisoryLock.parseApplicationName(name)
        switch name {
        case "milepost 4242@web-1": #expect(parsed?.pid == 4242 && parsed?.host == "web-1")
        case "milepost 7@a@b": #expect(parsed?.pid == 7 && parsed?.host == "a@b")
        default: #expect(parsed == nil)
        }
    }
}

@Suite(.enabled(if: TestServer.isConfigured, TestServer.missing))
struct PostgresStoreTests {
    @Test func theLockSessionIsNamedAfterThisProcessInPgStatActivity() async throws {
        let store = PostgresStore(url: TestServer.freshSchemaURL())
        let locked = try await store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        let names = try await TestServer.admin(
            "SELECT a.application_name FROM pg_stat_activity a JOIN \(store.tables.state) s ON s.holder_pid = a.pid")
        await locked.release()
        #expect(names.map { $0[0] } == ["milepost \(getpid())@\(ProcessIdentity.host)"])
    }

    @Test func theFenceRefusesAHolderThatLostItsLock() async throws {
        let url = TestServer.freshSchemaURL()
        // The first holder logs in as a role of its own, so that it can be kept from reconnecting.
        let role = "milepost_r_" + TestServer.uniqueName()
        try await TestServer.admin("CREATE ROLE \(role) LOGIN SUPERUSER")
        let first = try await PostgresStore(url: url.replacingOccurrences(of: "://postgres@", with: "://\(role)@"))
            .lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        let before = StoredState(app: "shop", version: Version("1"), updatedAt: Timestamp("2026-01-01T00:00:01.000Z")!)
        try await first.commit(before, journal: [])
        // A partition: the server drops the first holder's lock session and the holder cannot reach
        // it again to take the lock back; its data session lives on.
        let store = PostgresStore(url: url)
        try await TestServer.admin("ALTER ROLE \(role) NOLOGIN")
        try await TestServer.admin("SELECT pg_terminate_backend(holder_pid) FROM \(store.tables.state)")
        let second = try await store.lock(timeout: .seconds(10), holder: TestServer.holder(run: "run-b"))

        let stale = StoredState(app: "shop", version: Version("9"), updatedAt: Timestamp("2026-01-01T00:00:02.000Z")!)
        let refused = try await #require(throws: StoreError.self) { try await first.commit(stale, journal: []) }
        #expect(refused.description.contains("refused by the fence"), "\(refused)")
        await #expect(throws: StoreError.self) { try await first.append([ConformanceStore.record(.runFinished)]) }

        let newer = StoredState(app: "shop", version: Version("2"), updatedAt: Timestamp("2026-01-01T00:00:03.000Z")!)
        try await second.commit(newer, journal: [ConformanceStore.record(.baseline)])
        await #expect(throws: StoreError.self) { try await first.commit(stale, journal: []) }
        await second.release()
        await first.release()
        #expect(try await store.readState() == newer)
        #expect(try await store.readJournal().map(\.event) == [.baseline])
    }

    /// The lock row keeps no copy of the fencing generation (the fence is `state.generation`); a
    /// store whose `lease` table still has the `generation` column of earlier builds works as before.
    @Test(arguments: ["session", "lease"])
    func theLockRowHasNoGenerationAndAStoreThatStillHasTheColumnWorks(lock: String) async throws {
        let store = PostgresStore(url: TestServer.freshSchemaURL() + "&milepost_lock=\(lock)")
        try await store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a")).release()
        let columns = try await TestServer.admin(
            "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns "
                + "WHERE table_schema = $1 AND table_name = 'lease'", [store.tables.name])
        #expect(columns == [["singleton,kind,run,pid,host,since,backend_pid,expires_at"]])

        try await TestServer.admin("ALTER TABLE \(store.tables.lease) ADD COLUMN generation bigint")
        let locked = try await store.lock(timeout: .zero, holder: TestServer.holder(run: "run-b"))
        try await locked.commit(ConformanceStore.state, journal: [])
        await locked.release()
        #expect(try await store.readState() == ConformanceStore.state)
    }

    @Test func storesInDifferentSchemasLockIndependently() async throws {
        let one = try await PostgresStore(url: TestServer.freshSchemaURL()).lock(timeout: .zero, holder: TestServer.holder(run: "a"))
        let odd = PostgresStore(url: TestServer.url ?? "", schema: "we\"ird schema \(TestServer.uniqueName())")
        let two = try await odd.lock(timeout: .zero, holder: TestServer.holder(run: "b"))
        try await two.commit(ConformanceStore.state, journal: [])
        await one.release()
        await two.release()
        #expect(try await odd.readState() == ConformanceStore.state)
    }

    @Test func aStateOfAnUnknownFormatIsRefusedAndLeftAlone() async throws {
        let store = PostgresStore(url: TestServer.freshSchemaURL())
        let locked = try await store.lock(timeout: .zero, holder: TestServer.holder(run: "a"))
        try await locked.commit(ConformanceStore.state, journal: [])
        await locked.release()
        try await TestServer.admin("UPDATE \(store.tables.state) SET format = 2")
        let error = try await #require(throws: StoreError.self) { try await store.readState() }
        #expect(error.description.contains("format 2 is not one this version of Milepost knows"), "\(error)")
        #expect(try await TestServer.admin("SELECT version FROM \(store.tables.state)")[0][0] == "2.1.0")
    }

    @Test func aJournalRowThatIsNotARecordIsMalformedAndNamesTheField() async throws {
        let store = PostgresStore(url: TestServer.freshSchemaURL())
        let locked = try await store.lock(timeout: .zero, holder: TestServer.holder(run: "a"))
        try await locked.commit(ConformanceStore.state, journal: [ConformanceStore.record(.baseline)])
        await locked.release()
        try await TestServer.admin(
            "UPDATE \(store.tables.journal) SET record = jsonb_set(record, '{time}', '\"yesterday\"')")
        let error = try await #require(throws: StoreError.self) { try await store.readJournal(last: 1) }
        guard case .io(_, .malformed(let problem)) = error else {
            Issue.record("expected a malformed journal, got \(error)")
            return
        }
        #expect(problem == #"a journal row is not a journal record: `time`: "yesterday" is not a timestamp (YYYY-MM-DDTHH:MM:SS.mmmZ, UTC)"#)
    }
}
