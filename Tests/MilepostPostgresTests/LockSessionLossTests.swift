import Foundation
@testable import MilepostPostgres
import MilepostTestSupport
import Testing

/// The session advisory lock's session ended while its holder lives (an idle-connection killer's
/// `pg_terminate_backend`, `idle_session_timeout`): the holder notices within a second, takes the
/// lock back when nobody else has it, and otherwise stops its step; no other runner enters while
/// the holder may still be running its step, and `status` never calls the live step interrupted.
@Suite(.onItsOwnThread, .enabled(if: TestServer.isConfigured, TestServer.missing))
struct LockSessionLossTests {
    static let gate = """
        migrations:
          "1.0":
            - name: exec
              id: gate
              with: {command: [sh, -c, 'echo $$ > step.pid; while [ ! -e go ]; do sleep 0.05; done; echo ran >> ran.txt']}
        """

    @Test func aKilledLockSessionIsTakenBackAndNobodyEntersMeanwhile() async throws {
        let url = TestServer.freshSchemaURL()
        let schema = PostgresStore(url: url).tables
        let directory = try TestDirectory()
        try directory.write(Self.gate, to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        _ = try await directory.waitFor("step.pid")
        let killed = try await TestServer.admin("SELECT pg_terminate_backend(backend_pid) FROM \(schema.lease)")
        #expect(killed == [["t"]])

        let status = try MilepostProcess(["status", "--store", url], in: directory.path)
        _ = try status.wait()
        let shown = try status.stdout()
        #expect(shown.contains("RUNNING"), "\(shown)")
        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "2s"], in: directory.path)
        #expect(next.status == 75, "\(next.stderr)")
        #expect(next.stderr.contains("(run "), "\(next.stderr)")
        // Taken back on a new session: the lock row names it again.
        let deadline = ContinuousClock.now + .seconds(30)
        while try await TestServer.admin(
            "SELECT count(*) FROM \(schema.lease) l WHERE l.backend_pid IN (SELECT pid FROM pg_stat_activity)") != [["1"]],
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        try directory.write("", to: "go")
        let ran = try holder.wait()
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(directory.read("ran.txt") == "ran\n")
    }

    @Test func aHolderThatCannotTakeItsLockBackStopsItsStep() async throws {
        let url = TestServer.freshSchemaURL()
        let schema = PostgresStore(url: url).tables
        let directory = try TestDirectory()
        try directory.write(Self.gate, to: "milepost.yaml")
        // The holder logs in as a role of its own, so that it can be kept from reconnecting.
        let role = "milepost_r_" + TestServer.uniqueName()
        try await TestServer.admin("CREATE ROLE \(role) LOGIN SUPERUSER")
        let holder = try MilepostProcess(
            ["run", "--store", url.replacingOccurrences(of: "://postgres@", with: "://\(role)@"), "--to", "1.0",
             "--termination-grace", "10m"], in: directory.path)
        let stepPID = Int32(try await directory.waitFor("step.pid").dropLast()) ?? 0
        try await TestServer.admin("ALTER ROLE \(role) NOLOGIN")
        try await TestServer.admin("SELECT pg_terminate_backend(backend_pid) FROM \(schema.lease)")
        // Guards the test against a holder that never notices: the step is let go after 60 s.
        let limit = ContinuousClock.now + .seconds(60)
        while holder.process.isRunning, ContinuousClock.now < limit {
            try await Task.sleep(for: .milliseconds(50))
        }
        try directory.write("", to: "go")
        let stopped = try holder.wait()
        #expect(stopped.status == 74, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("lost the lock of run"), "\(stopped.stderr)")
        #expect(kill(stepPID, 0) != 0, "the step still runs")
        #expect(directory.read("ran.txt") == nil)
        let interrupted = try await TestServer.admin(
            "SELECT count(*) FROM \(schema.journal) WHERE event = 'step-interrupted' AND step = '1.0/gate'")
        #expect(interrupted == [["1"]])
    }

    /// `idle_session_timeout` ends idle sessions: the holder's lock session is never idle that long
    /// (its heartbeat), and its data session, idle while an `exec` step runs, is reopened for the
    /// checkpoint. A second runner never runs the idempotent step beside the first.
    @Test func anIdleSessionTimeoutNeitherFreesTheLockNorLosesTheStep() async throws {
        let url = try await TestServer.freshDatabase()
        let database = String(url.split(separator: "/").last ?? "")
        try await TestServer.admin("ALTER DATABASE \(database) SET idle_session_timeout = '1500ms'")
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - name: exec
                  id: slow
                  idempotent: true
                  with: {command: [sh, -c, 'echo start >> ran.txt; echo $$ > step.pid; sleep 4; echo end >> ran.txt']}
            """, to: "milepost.yaml")
        let first = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        _ = try await directory.waitFor("step.pid")
        let second = try MilepostProcess(["run", "--store", url, "--to", "1.0", "--lock-timeout", "30s"], in: directory.path)
        let ranFirst = try first.wait()
        let ranSecond = try second.wait()
        #expect(ranFirst.status == 0, "\(ranFirst.stderr)")
        #expect(ranSecond.status == 0, "\(ranSecond.stderr)")
        #expect(directory.read("ran.txt") == "start\nend\n")
    }
}
