import Foundation
import Milepost
import Testing
@testable import MilepostPostgres

/// The PostgreSQL server the tests use: `MILEPOST_TEST_POSTGRES_URL`, which `.ci/run` sets from
/// `scripts/postgres-test-server.sh start` (a server that fails to start fails CI there).
/// Locally, without it, the suites that need a server are disabled with that reason.
enum TestServer {
    static let url = ProcessInfo.processInfo.environment["MILEPOST_TEST_POSTGRES_URL"]
    static let isConfigured = url != nil
    static let missing: Comment =
        "MILEPOST_TEST_POSTGRES_URL is not set; start a server with scripts/postgres-test-server.sh start DIR"

    /// A URL of the test server for a fresh, unique schema: every test gets an empty store.
    static func freshSchemaURL() -> String {
        let base = url ?? "postgres://unset"
        return base + (base.contains("?") ? "&" : "?") + "milepost_schema=t_" + uniqueName()
    }

    /// A fresh, empty database on the test server; returns its URL.
    static func freshDatabase() async throws -> String {
        let name = "milepost_t_" + uniqueName()
        try await admin("CREATE DATABASE \(name)")
        let base = url ?? "postgres://unset"
        let (head, query) = base.firstIndex(of: "?").map { (base[..<$0], base[$0...]) } ?? (base[...], "")
        let withoutDatabase = head.lastIndex(of: "/").map { head[..<$0] } ?? head
        return withoutDatabase + "/" + name + query
    }

    /// Runs SQL on the test server's database (or `database`'s URL), returning the rows as text.
    @discardableResult
    static func admin(_ sql: String, _ parameters: [String?] = [], url target: String? = nil) async throws -> [[String?]] {
        let session = try await PostgresSession.open(ConnectionSettings(url: target ?? url ?? "postgres://unset"))
        return try await session.query(sql, parameters).map(\.columns)
    }

    /// `url` (direct or through PgBouncer, with Milepost's parameters) as a direct URL of the test
    /// server for `admin`: same database, the test server's host and port, no parameters.
    static func direct(_ url: String) -> String {
        let moved = rehosted(url, onto: self.url ?? "postgres://unset")
        return moved.firstIndex(of: "?").map { String(moved[..<$0]) } ?? moved
    }

    /// `url` with the scheme, user, host and port of `server`, keeping its database and parameters.
    static func rehosted(_ url: String, onto server: String) -> String {
        let head = server.firstIndex(of: "?").map { server[..<$0] } ?? server[...]
        let authority = head.lastIndex(of: "/").map { head[..<$0] } ?? head
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        return String(authority) + (afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "")
    }

    static func uniqueName() -> String {
        UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12).description
    }

    /// A holder for in-process lock tests.
    static func holder(run: String) -> LockHolder {
        LockHolder(pid: 4242, host: "test-host", since: Timestamp("2026-01-02T03:04:05.678Z")!, run: run)
    }
}
