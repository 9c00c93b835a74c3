import Foundation
@testable import MilepostMariaDB
import MilepostTestSupport
import Testing

/// The MariaDB store under faults, as reliable as the PostgreSQL store (issue 42, items 8 and 9):
/// a data connection the server closed while a step ran (`wait_timeout`, a `KILL`) is opened again
/// to record the step and release the lease; a command advised without the URL's password
/// authenticates with `MYSQL_PWD`, as documented; a holder frozen inside a `mysql` step keeps its row locks no
/// longer than its lease.
@Suite(.onItsOwnThread, .enabled(if: MariaDBTestServer.isConfigured, MariaDBTestServer.missing))
struct MariaDBFaultTests {
    /// The PostgreSQL store's lost-connection manifest: step `1.0/cut` waits for the file `go`.
    static let manifest = LostConnectionTests.manifest

    /// The step is recorded, the run goes on, the lease is freed, and a second run runs nothing.
    static func expectRecorded(
        _ ran: (status: Int32, stdout: String, stderr: String), url: String, admin: String? = nil, in directory: TestDirectory
    ) async throws {
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(directory.read("ran.txt") == "cut\nsecond\n")
        #expect(try await MariaDBTestServer.admin(
            "SELECT JSON_VALUE(state, '$.version'), JSON_VALUE(state, '$.in_progress.id') FROM milepost_state", url: admin ?? url)
            == [["1.1", nil]])
        #expect(try await MariaDBTestServer.admin("SELECT run FROM milepost_lease", url: admin ?? url) == [[nil]])
        let again = try await MilepostProcess.outcome(["run", "--store", url, "--to", "1.1", "--lock-timeout", "1s"], in: directory.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(directory.read("ran.txt") == "cut\nsecond\n")
    }

    /// A step longer than the server's `wait_timeout`: the server closed the idle data connection
    /// meanwhile ("Server has gone away", error 2006); the checkpoint goes on a new one. As the
    /// user `milepost_idle` of the test server, whose sessions alone get a `wait_timeout` of 2 s
    /// (scripts/mariadb-test-server.sh), so the tests beside this one keep the default.
    @Test func aStepLongerThanWaitTimeoutIsRecordedOnANewConnection() async throws {
        let (runner, admin) = MariaDBTestServer.idleDatabaseURLs()
        let url = MariaDBProcessTests.leased(runner, "3s")
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let running = try MilepostProcess(["run", "--store", url, "--to", "1.1"], in: directory.path)
        _ = try await directory.waitFor("ready")
        // Idle for longer than wait_timeout: the server closes the data connection.
        try await Task.sleep(for: .seconds(4))
        try directory.write("", to: "go")
        try await Self.expectRecorded(try await running.ended(), url: url, admin: admin, in: directory)
    }

    /// Every connection of the runner killed while its step runs (an operator's `KILL`, a proxy or
    /// a fail-over dropping them): the heartbeat opens a new lock connection, the checkpoint a new
    /// data connection.
    @Test func aKilledIdleDataConnectionIsOpenedAgainToRecordTheStep() async throws {
        let url = MariaDBTestServer.freshDatabaseURL()
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let runner = try MilepostProcess(["run", "--store", url, "--to", "1.1"], in: directory.path)
        _ = try await directory.waitFor("ready")
        let connections = try await MariaDBTestServer.admin(
            "SELECT id FROM information_schema.processlist WHERE db = ? AND id <> CONNECTION_ID()",
            [MariaDBProcessTests.database(url)])
        #expect(connections.count >= 2, "\(connections)")
        for row in connections {
            try await MariaDBTestServer.admin("KILL CONNECTION \(row[0] ?? "0")")
        }
        try directory.write("", to: "go")
        try await Self.expectRecorded(try await runner.ended(), url: url, in: directory)
    }

    /// Advice names the store without its password; the command pasted from it authenticates with
    /// `MYSQL_PWD`, which the client library reads as the `mariadb` client does (docs/store.md).
    @Test func anAdvisedCommandAuthenticatesWithMYSQLPWD() async throws {
        let url = MariaDBTestServer.freshDatabaseURL()
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\": [{name: exec, id: fails, with: {command: [sh, -c, 'exit 3']}}]\n", to: "milepost.yaml")
        let failed = try await MilepostProcess.outcome(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(failed.status == 1, "\(failed.stderr)")
        let shown = try await MilepostProcess.outcome(["status", "--store", url], in: directory.path).stdout
        let advised = try #require(shown.firstRange(of: "`milepost resolve 1.0/fails --done --store ").map {
            shown[$0.upperBound...].prefix { $0 != "`" }
        }, "\(shown)")
        #expect(!advised.contains(":milepost@"), "\(advised)")
        let denied = try await MilepostProcess.outcome(["resolve", "1.0/fails", "--done", "--store", String(advised)], in: directory.path)
        #expect(denied.status != 0, "\(denied.stderr)")
        #expect(denied.stderr.contains("Access denied"), "\(denied.stderr)")
        let password = try #require(MariaDBSettings(url: url).password)
        let resolved = try await MilepostProcess(
            ["resolve", "1.0/fails", "--done", "--store", String(advised)], in: directory.path, environment: ["MYSQL_PWD": password]
        ).ended()
        #expect(resolved.status == 0, "\(resolved.stderr)")
    }

    /// A holder stopped (SIGSTOP) inside a `mysql` step, its transaction holding a row lock: the
    /// server ends that transaction once it has been idle for the lease, so the runner that takes
    /// the lapsed lease runs the step within seconds, not after `innodb_lock_wait_timeout` (50 s),
    /// failing. Continued, the holder finds its connection gone: nothing of its step lands.
    @Test func aFrozenHolderInsideAMySQLStepHoldsItsRowLocksNoLongerThanTheLease() async throws {
        let url = MariaDBProcessTests.leased(MariaDBTestServer.freshDatabaseURL(), "3s")
        let gate = "gate_" + MariaDBProcessTests.database(url)
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0": [{name: mysql, id: table, with: {sql: "CREATE TABLE IF NOT EXISTS items (id int PRIMARY KEY, n int)"}}]
              "1.1": [{name: mysql, id: seed, with: {sql: "INSERT INTO items VALUES (1, 0)"}}]
              "2.0": [{name: mysql, id: bump, with: {sql: "UPDATE items SET n = n + 1 WHERE id = 1; DO GET_LOCK('\(gate)', 300)"}}]
            """, to: "milepost.yaml")
        let setup = try await MilepostProcess.outcome(["run", "--store", url, "--to", "1.1"], in: directory.path)
        #expect(setup.status == 0, "\(setup.stderr)")
        // The holder's step locks the row, then waits in the server for the gate this test holds.
        let gatekeeper = try await MariaDBConnection.open(MariaDBSettings(url: url))
        #expect(try await gatekeeper.query("SELECT GET_LOCK(?, 0)", [gate]).map(\.columns) == [["1"]])
        let holder = try MilepostProcess(["run", "--store", url, "--to", "2.0"], in: directory.path)
        defer { kill(holder.pid, SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(240)
        var waiting = false
        while !waiting, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            waiting = try await gatekeeper.query(
                "SELECT COUNT(*) FROM information_schema.processlist WHERE db = ? AND info LIKE 'DO GET_LOCK%'",
                [MariaDBProcessTests.database(url)]).map(\.columns) == [["1"]]
        }
        try #require(waiting, "the step never started")
        // Frozen with the row locked; the gate opens in the server and the transaction sits idle.
        kill(holder.pid, SIGSTOP)
        _ = try await gatekeeper.query("DO RELEASE_LOCK(?)", [gate])
        let started = ContinuousClock.now
        let taker = try await MilepostProcess.outcome(["run", "--store", url, "--to", "2.0", "--lock-timeout", "2m"], in: directory.path)
        let took = ContinuousClock.now - started
        #expect(taker.status == 0, "\(taker.stderr)")
        #expect(took < .seconds(40), "the taker waited \(took)")
        kill(holder.pid, SIGCONT)
        let frozen = try await holder.ended()
        #expect(frozen.status != 0, "\(frozen.stderr)")
        #expect(try await MariaDBTestServer.admin("SELECT n FROM items", url: url) == [["1"]])
        #expect(try await MariaDBTestServer.admin(
            "SELECT JSON_LENGTH(state, '$.completed'), JSON_VALUE(state, '$.version') FROM milepost_state", url: url)
            == [["3", "2.0"]])
    }
}
