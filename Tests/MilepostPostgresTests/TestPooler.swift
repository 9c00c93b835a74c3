import Foundation
import Testing

/// The PgBouncer the fleet tests also run through: `MILEPOST_TEST_PGBOUNCER_URL`, which `.ci/run`
/// sets from `scripts/pgbouncer-test-server.sh start` (transaction pooling, in front of the test
/// server). Locally, without it, the suites that need it are disabled with that reason; CI fails
/// when it sees the reason.
enum TestPooler {
    static let url = ProcessInfo.processInfo.environment["MILEPOST_TEST_PGBOUNCER_URL"]
    static let isConfigured = url != nil && TestServer.isConfigured
    static let missing: Comment =
        "MILEPOST_TEST_PGBOUNCER_URL is not set; start PgBouncer with scripts/pgbouncer-test-server.sh start DIR PG_URL"

    /// `directURL` (a URL of the test server) rewritten to go through PgBouncer: its scheme, user,
    /// host and port, then `directURL`'s database and parameters (PgBouncer serves every database).
    static func through(_ directURL: String) -> String {
        TestServer.rehosted(directURL, onto: url ?? "postgres://unset")
    }
}

/// How the fleet tests reach the server.
enum Route: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// Directly, with the default lock there (the session advisory lock).
    case direct
    /// Directly, with `milepost_lock=lease`.
    case directLease
    /// Through PgBouncer in transaction mode, where the lease is chosen by itself.
    case pgbouncer

    var testDescription: String { rawValue }

    /// `directURL` routed this way, with `milepost_lease=4s` so lapses take seconds.
    func url(_ directURL: String) -> String {
        switch self {
        case .direct: directURL
        case .directLease: directURL + (directURL.contains("?") ? "&" : "?") + "milepost_lock=lease&milepost_lease=4s"
        case .pgbouncer:
            TestPooler.through(directURL) + (directURL.contains("?") ? "&" : "?") + "milepost_lease=4s"
        }
    }

    /// The routes whose lock is the lease.
    static let leased: [Route] = [.directLease, .pgbouncer]
}
