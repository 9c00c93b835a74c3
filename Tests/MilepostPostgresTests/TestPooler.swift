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

    /// `directURL` routed this way, with `milepost_lease=LEASE` (4s by default, so lapses take
    /// seconds). Tests that expect no lapse at all give a longer lease: a holder must renew within
    /// half of it, and 50 runners starting at once on two cores can hold it off the CPU (or, through
    /// PgBouncer, queue its renewal behind their polls) for more than a second.
    func url(_ directURL: String, lease: String = "4s") -> String {
        switch self {
        case .direct: directURL
        case .directLease: directURL + (directURL.contains("?") ? "&" : "?") + "milepost_lock=lease&milepost_lease=\(lease)"
        case .pgbouncer:
            TestPooler.through(directURL) + (directURL.contains("?") ? "&" : "?") + "milepost_lease=\(lease)"
        }
    }

    /// The routes whose lock is the lease.
    static let leased: [Route] = [.directLease, .pgbouncer]
}
