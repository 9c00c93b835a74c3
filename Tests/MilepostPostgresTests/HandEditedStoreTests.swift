import Foundation
import Milepost
import Testing
@testable import MilepostPostgres

/// A store's tables edited by hand, the way a DBA clears other tools' lock tables and history
/// rows, and names PostgreSQL would change without a word: real `milepost` processes against the
/// real test server (and PgBouncer), docs/postgres.md "What to do when…".
@Suite(.enabled(if: TestPooler.isConfigured, TestPooler.missing))
struct HandEditedStoreTests {
    static let manifest = """
        migrations:
          "1.0":
            - {name: exec, id: a, with: {command: [sh, -c, 'echo a >> ran.txt']}}
            - {name: exec, id: b, with: {command: [sh, -c, 'echo b >> ran.txt']}}
          "1.1":
            - {name: exec, id: c, with: {command: [sh, -c, 'echo c >> ran.txt']}}
          "1.2":
            - {name: exec, id: d, with: {command: [sh, -c, 'echo d >> ran.txt; exit 1']}}
        """

    /// Rows were numbered from the row count: with the first of two rows deleted, the next step
    /// took position 1, which `b` holds, and could never be recorded (nor resolved).
    @Test func aDeletedCompletedStepRowLeavesAGapNotACollision() async throws {
        let url = TestServer.freshSchemaURL()
        let schema = PostgresStore(url: url).tables
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let first = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(first.status == 0, "\(first.stderr)")
        try await TestServer.admin("DELETE FROM \(schema.completedSteps) WHERE id = '1.0/a'")

        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.1"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        let failing = try MilepostProcess.run(["run", "--store", url, "--to", "1.2"], in: directory.path)
        #expect(failing.status == 1, "\(failing.stderr)")
        let resolved = try MilepostProcess.run(["resolve", "1.2/d", "--done", "--store", url], in: directory.path)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        #expect(directory.read("ran.txt") == "a\nb\nc\nd\n")
        #expect(try await TestServer.admin(
            "SELECT string_agg(id || '@' || position, ',' ORDER BY position) FROM \(schema.completedSteps)")
            == [["1.0/b@1,1.1/c@2,1.2/d@3"]])
    }

    /// `DELETE FROM milepost.lease` left no row to claim: every runner, `resolve` and `baseline`
    /// exited 75 "held by another process" while `status` said the lock was free.
    @Test(arguments: Route.allCases)
    func aDeletedLockRowIsPutBackAndTheNextRunnerRuns(route: Route) async throws {
        let direct = TestServer.freshSchemaURL()
        let url = route.url(direct)
        let schema = PostgresStore(url: direct).tables
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let first = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(first.status == 0, "\(first.stderr)")
        try await TestServer.admin("DELETE FROM \(schema.lease)")

        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.1", "--lock-timeout", "3s"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(directory.read("ran.txt") == "a\nb\nc\n")
        #expect(try await TestServer.admin("SELECT count(*), count(run) FROM \(schema.lease)") == [["1", "0"]])
    }

    /// A lock row deleted while a session advisory lock holds the store comes back naming that
    /// lock's session: a lease taker waits for it instead of running beside it.
    @Test func aLockRowDeletedUnderASessionHolderComesBackHeldByIt() async throws {
        let url = TestServer.freshSchemaURL()
        let holding = try await PostgresStore(url: url).lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        try await TestServer.admin("DELETE FROM \(PostgresStore(url: url).tables.lease)")
        let lease = PostgresStore(url: url + "&milepost_lock=lease")
        let refused = try await #require(throws: StoreError.self) {
            _ = try await lease.lock(timeout: .milliseconds(500), holder: TestServer.holder(run: "run-b"))
        }
        await holding.release()
        guard case .lockTimeout(_, _, let holder) = refused else {
            Issue.record("expected a lock timeout, got \(refused)")
            return
        }
        #expect(holder?.run == "run-a", "\(refused)")
        let next = try await lease.lock(timeout: .seconds(5), holder: TestServer.holder(run: "run-b"))
        await next.release()
    }

    /// Creating the tables waited for the set-up lock without bound: a runner frozen inside the
    /// set-up held every other runner's pre-start hook.
    @Test func waitingForTheSchemaSetUpEndsAtTheLockTimeoutWithExit75() async throws {
        let url = TestServer.freshSchemaURL()
        let schema = PostgresStore(url: url).tables
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        // Another runner inside the set-up, frozen there: its transaction holds the set-up lock.
        let frozen = try await PostgresSession.open(ConnectionSettings(url: TestServer.url ?? ""))
        try await frozen.query("BEGIN")
        try await frozen.query("SELECT pg_advisory_xact_lock($1, $2)", [String(schema.setupLock.0), String(schema.setupLock.1)])
        // Guards the test against a runner that waits without bound: the lock is given back after 60 s.
        let thaw = Task {
            try? await Task.sleep(for: .seconds(60))
            await frozen.rollback()
        }
        let waiting = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "1s"], in: directory.path)
        thaw.cancel()
        await frozen.rollback()
        #expect(waiting.status == 75, "\(waiting.stderr)")
        #expect(waiting.stderr.contains("could not take the lock of \(PostgresStore(url: url).location) within 1s: held by pid \(getpid())"), "\(waiting.stderr)")
        let after = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "1s"], in: directory.path)
        #expect(after.status == 0, "\(after.stderr)")
    }

    /// A lease PostgreSQL cannot hold (`25d`: the holder's transaction is bounded by it in 32-bit
    /// milliseconds) failed every run with the server's raw "Value exceeds integer range", and one
    /// too short (`100ms`) as an I/O error (74): both are the URL's fault, refused as usage (64)
    /// before anything is read or written (issue 42, item 11).
    @Test(arguments: [("25d", "give at most 576h"), ("100ms", "give at least 500ms")])
    func aLeaseTheStoreCannotHoldIsAUsageError(lease: String, reason: String) async throws {
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let url = TestServer.freshSchemaURL() + "&milepost_lease=" + lease
        for command in [["run", "--to", "1.0"], ["status"]] {
            let refused = try MilepostProcess.run(command + ["--store", url], in: directory.path)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("invalid URL parameter milepost_lease=\(lease): \(reason)"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("integer range"), "\(refused.stderr)")
        }
        #expect(directory.read("ran.txt") == nil)
        let longest = try MilepostProcess.run(["run", "--store", TestServer.freshSchemaURL() + "&milepost_lease=24d", "--to", "1.0"], in: directory.path)
        #expect(longest.status == 0, "\(longest.stderr)")
    }

    /// PostgreSQL cuts names at 63 bytes without a word: two schemas differing after that shared
    /// one state while locking on different keys.
    @Test func aSchemaNamePostgreSQLWouldTruncateIsRefused() async throws {
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let long = "s_" + String(repeating: "x", count: 61) + "_staging"
        let refused = try MilepostProcess.run(
            ["run", "--store", (TestServer.url ?? "") + "?milepost_schema=" + long, "--to", "1.0"], in: directory.path)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("the schema name \(long) is 71 bytes long; PostgreSQL cuts names at 63 bytes"), "\(refused.stderr)")
        #expect(directory.read("ran.txt") == nil)
        let longest = "t_" + TestServer.uniqueName() + String(repeating: "y", count: 49)
        #expect(longest.utf8.count == 63)
        let accepted = try MilepostProcess.run(
            ["run", "--store", (TestServer.url ?? "") + "?milepost_schema=" + longest, "--to", "1.0"], in: directory.path)
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }
}
