import Foundation
import Milepost
import Testing
@testable import MilepostMariaDB

/// The MariaDB server the tests use: `MILEPOST_TEST_MARIADB_URL`, which `.ci/run` sets from
/// `scripts/mariadb-test-server.sh start` (a server that fails to start fails CI there).
/// Locally, without it, the suites that need it are disabled with that reason (and CI fails on it).
enum MariaDBTestServer {
    static let url = ProcessInfo.processInfo.environment["MILEPOST_TEST_MARIADB_URL"]
    static let isConfigured = url != nil
    static let missing: Comment =
        "MILEPOST_TEST_MARIADB_URL is not set; start a server with scripts/mariadb-test-server.sh start DIR"

    /// A URL of the test server naming a fresh, unique database (not created yet): every test
    /// gets an empty store.
    static func freshDatabaseURL() -> String {
        let base = url ?? "mysql://unset/unset"
        let (head, query) = base.firstIndex(of: "?").map { (base[..<$0], base[$0...]) } ?? (base[...], "")
        let afterScheme = head.range(of: "://").map { $0.upperBound } ?? head.startIndex
        let authority = head[afterScheme...].firstIndex(of: "/").map { head[..<$0] } ?? head
        return authority + "/milepost_t_" + TestServer.uniqueName() + query
    }

    /// A fresh database for the user `milepost_idle`, whose sessions the server closes after 2 s
    /// idle (`wait_timeout`; set up by scripts/mariadb-test-server.sh for this user only): the URL
    /// a runner is given, and the same database as the test server's own user, for the test's queries.
    static func idleDatabaseURLs() -> (runner: String, admin: String) {
        let admin = freshDatabaseURL().replacing("/milepost_t_", with: "/milepost_idle_")
        let afterScheme = admin.range(of: "://")!.upperBound
        let at = admin[afterScheme...].firstIndex(of: "@")!
        return (admin[..<afterScheme] + "milepost_idle:milepost" + admin[at...], admin)
    }

    /// Runs SQL on the test server (in `url`'s database, which must exist), returning the rows as text.
    @discardableResult
    static func admin(_ sql: String, _ parameters: [String?] = [], url target: String? = nil) async throws -> [[String?]] {
        let connection = try await MariaDBConnection.open(MariaDBSettings(url: target ?? url ?? "mysql://unset/unset"))
        return try await connection.query(sql, parameters).map(\.columns)
    }

    /// Whether `database` exists on the test server.
    static func exists(_ database: String) async throws -> Bool {
        try await admin("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?", [database]) == [["1"]]
    }
}
