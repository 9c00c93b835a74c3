import Foundation
import Milepost
import MilepostMariaDB
@testable import MilepostPostgres
import MilepostSQLite

/// The stores the conformance suite runs over, each made fresh and empty for one test.
enum StoreKind: String, CaseIterable, Sendable {
    case file, postgres, sqlite, mariadb

    func make() throws -> ConformanceStore { try ConformanceStore(kind: self) }

    /// The kinds this machine can test: PostgreSQL and MariaDB only with their test servers
    /// (`TestServer`, `MariaDBTestServer`); the file and SQLite stores always.
    static var available: [StoreKind] {
        allCases.filter { ($0 != .postgres || TestServer.isConfigured) && ($0 != .mariadb || MariaDBTestServer.isConfigured) }
    }
}

extension StoreKind {
    /// A `--store` value naming a fresh, empty store of this kind for the binary; a file or SQLite
    /// store in `directory`. A MariaDB lease lasts 2 s, so a runner killed with `kill -9` does not
    /// keep the lock from the next for the default 30 s.
    func freshSpec(in directory: String) -> String {
        switch self {
        case .file: directory + "/fleet"
        case .sqlite: "sqlite:" + directory + "/fleet.db"
        case .postgres: TestServer.freshSchemaURL()
        case .mariadb:
            { $0 + ($0.contains("?") ? "&" : "?") + "milepost_lease=2s" }(MariaDBTestServer.freshDatabaseURL())
        }
    }
}

/// A fresh store of one kind; a file store's directory is removed when this goes away.
final class ConformanceStore: Sendable {
    let kind: StoreKind
    let store: any MilepostStore
    private let scratch: TestDirectory
    /// The MariaDB store's URL (with its password, which the store does not show).
    private let mariadbURL: String

    init(kind: StoreKind) throws {
        self.kind = kind
        scratch = try TestDirectory()
        mariadbURL = MariaDBTestServer.freshDatabaseURL()
        store = switch kind {
        case .file: FileStore(path: scratch.path + "/store")
        case .postgres: PostgresStore(url: TestServer.freshSchemaURL())
        case .sqlite: SQLiteStore(path: scratch.path + "/app.db")
        case .mariadb: MariaDBStore(url: mariadbURL)
        }
    }

    /// Another instance of the same store, as a second process would open it.
    func reopen() -> any MilepostStore {
        switch store {
        case let postgres as PostgresStore: PostgresStore(url: TestServer.url ?? "", schema: postgres.schema)
        case let sqlite as SQLiteStore: SQLiteStore(path: sqlite.path)
        case is MariaDBStore: MariaDBStore(url: mariadbURL)
        default: FileStore(path: store.location)
        }
    }

    /// True when nothing at all was created: no directory, no schema, no database or lock file.
    func isUntouched() async throws -> Bool {
        switch store {
        case let postgres as PostgresStore:
            try await TestServer.admin("SELECT to_regnamespace($1) IS NULL", [postgres.schema])[0][0] == "t"
        case let mariadb as MariaDBStore:
            try await !MariaDBTestServer.exists(mariadb.database)
        case let sqlite as SQLiteStore:
            (try FileManager.default.contentsOfDirectory(atPath: scratch.path)).isEmpty
                && !FileManager.default.fileExists(atPath: sqlite.path)
        default:
            !FileManager.default.fileExists(atPath: store.location)
        }
    }

    /// A state with every field set, a set-aside interrupted mark and failure among them.
    static let state: StoredState = {
        var state = StoredState(
        app: "shop", version: Version("2.1.0"),
        completed: [
            CompletedStep(id: "2.0.0/backfill", at: Timestamp("2026-01-02T03:04:05.678Z")!, run: "run-a", fingerprint: "f1"),
            CompletedStep(
                id: "2.1.0/reindex", at: Timestamp("2026-01-02T03:05:00.000Z")!, run: "run-a", fingerprint: "f2", via: "resolved"),
        ],
        inProgress: InProgressStep(
            id: "2.1.0/warm", run: "run-a", since: Timestamp("2026-01-02T03:06:00.000Z")!, attempt: 2, host: "test-host", pid: 4242),
        failed: FailedStep(id: "2.1.0/warm", run: "run-a", at: Timestamp("2026-01-02T03:05:30.000Z")!, error: "boom \"quoted\" ü"),
        updatedAt: Timestamp("2026-01-02T03:06:00.000Z")!)
        state.setAside = [
            .interrupted(InProgressStep(
                id: "2.1.0/items", run: "run-0", since: Timestamp("2026-01-01T00:00:00.000Z")!, attempt: 1, host: "test-host",
                pid: 4141, cursor: "50")),
            .failed(FailedStep(
                id: "2.1.0/copy", run: "run-0", at: Timestamp("2026-01-01T00:01:00.000Z")!, error: "full", cursor: "7",
                phase: .background)),
        ]
        state.inProgress?.phase = .contract
        state.floor = CompatibilityFloor(version: Version("2.0.0"), step: "2.0.0/backfill")
        return state
    }()

    static func record(_ event: JournalRecord.Event, step: String? = nil) -> JournalRecord {
        JournalRecord(
            time: Timestamp("2026-01-02T03:04:05.678Z")!, run: "run-a", event: event, app: "shop", step: step,
            attempt: step == nil ? nil : 1, durationMs: step == nil ? nil : 12, host: "test-host", pid: 4242)
    }
}
