import Foundation
import MilepostTestSupport
import Testing

/// Real `milepost` fleets directly and through a real PgBouncer in transaction mode: the session
/// lock on a direct connection, the lease (asked for, or chosen because a pooler is detected).
@Suite(.onItsOwnThread, .enabled(if: TestPooler.isConfigured, TestPooler.missing))
struct FleetLeaseTests {
    /// A step that, the first time, writes its shell's pid to `step.pid` and sleeps until killed (5
    /// minutes, as `FleetProcessTests.sleeper`: longer than a test may be starved of the pool by the
    /// blocking tests that run beside it); the next time it only notes that it ran. Idempotent, so a
    /// new runner may run it again.
    static let firstTimeSleeper = #"""
        {name: exec, id: slow, idempotent: true, with: {command: [sh, -c, 'if [ -e started ]; then echo again >> slow.log; else touch started; echo $$ > step.pid; exec sleep 300; fi']}}
        """#

    /// One route at a time: 50 runners hold up to 100 server connections (the test server allows 200).
    @Test(.serialized, arguments: Route.allCases)
    func fiftyRunnersAtOnceRunEveryStepExactlyOnce(route: Route) async throws {
        let url = route.url(try await TestServer.freshDatabase(), lease: "20s")
        let directory = try TestDirectory()
        try directory.write("""
            app: fleet
            migrations:
              "1.0":
                - {name: exec, id: note, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
                - {name: sql, id: seed, with: {sql: "CREATE TABLE seeded (n int); INSERT INTO seeded VALUES (1)"}}
            """, to: "milepost.yaml")
        let runners = try (0..<50).map { _ in
            try MilepostProcess(["run", "--store", url, "--to", "1.0", "--lock-timeout", "5m"], in: directory.path)
        }
        let results = try runners.map { try $0.wait() }
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/note\n")
        #expect(try await TestServer.admin("SELECT count(*) FROM seeded", url: TestServer.direct(url)) == [["1"]])
        #expect(try await TestServer.admin(
            "SELECT string_agg(id, ',' ORDER BY position) FROM milepost.completed_steps", url: TestServer.direct(url))
            == [["1.0/note,1.0/seed"]])
        #expect(results.filter { $0.stderr.contains("2 steps ran") }.count == 1)
    }

    @Test(arguments: Route.leased)
    func killingTheHolderMidStepLetsTheNextRunnerTakeOverWhenTheLeaseLapses(route: Route) async throws {
        let direct = TestServer.freshSchemaURL()
        let url = route.url(direct)
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\":\n    - \(FleetProcessTests.sleeper)\n", to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        let stepPID = try await directory.waitFor("step.pid")
        kill(holder.pid, SIGKILL)
        kill(Int32(stepPID.dropLast()) ?? 0, SIGKILL)
        _ = try holder.wait()
        let holderRun = try await TestServer.admin("SELECT in_progress->>'run' FROM \(schema(direct)).state", url: direct)[0][0]

        // Without the lapse the lock would never come free (through PgBouncer a session lock would
        // even outlive the process): exit 75. The lease lets the next runner in, to stop at the step.
        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "30s"], in: directory.path)
        #expect(next.status == 2, "\(next.stderr)")
        #expect(next.stderr.contains("step 1.0/slow was interrupted (pid \(holder.pid) on "), "\(next.stderr)")
        let takeover = try await TestServer.admin(
            "SELECT step, record->>'previous_run' FROM \(schema(direct)).journal WHERE event = 'lock-taken-over'", url: direct)
        #expect(takeover == [["1.0/slow", holderRun]])
        let status = try MilepostProcess.run(["status", "--store", url], in: directory.path)
        #expect(status.status == 0)
    }

    @Test(arguments: Route.leased)
    func aFrozenHolderLosesItsLeaseAndWhenContinuedIsRefusedByTheFenceWritingNothing(route: Route) async throws {
        let direct = TestServer.freshSchemaURL()
        let url = route.url(direct)
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\":\n    - \(Self.firstTimeSleeper)\n", to: "milepost.yaml")
        let frozen = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        let stepPID = try await directory.waitFor("step.pid")
        kill(frozen.pid, SIGSTOP)
        // Its step dies meanwhile: while it lived, a runner on this host would wait for it rather than
        // start a second copy (ReliabilityKillTests); on another host the lease alone lets it in.
        kill(Int32(stepPID.dropLast()) ?? 0, SIGKILL)
        let frozenRun = try await TestServer.admin("SELECT in_progress->>'run' FROM \(schema(direct)).state", url: direct)[0][0]

        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "30s"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(directory.read("slow.log") == "again\n")
        let stored = "SELECT generation, version, in_progress::text, (SELECT count(*) FROM \(schema(direct)).journal) FROM \(schema(direct)).state"
        let before = try await TestServer.admin(stored, url: direct)
        #expect(before[0][1] == "1.0")
        let takeover = try await TestServer.admin(
            "SELECT step, record->>'previous_run' FROM \(schema(direct)).journal WHERE event = 'lock-taken-over'", url: direct)
        #expect(takeover == [["1.0/slow", frozenRun]])

        kill(frozen.pid, SIGCONT)
        let continued = try frozen.wait()
        #expect(continued.status == 74, "\(continued.stderr)")
        #expect(continued.stderr.contains("refused by the fence") || continued.stderr.contains("lost the lock"), "\(continued.stderr)")
        #expect(try await TestServer.admin(stored, url: direct) == before)
    }

    /// A holder frozen inside its `sql` step's transaction, which holds a row lock: the runner that
    /// takes its lapsed lease over re-runs the step and waits on that lock only until the server ends
    /// the frozen transaction (idle in it for longer than the lease), instead of for as long as the
    /// holder stays frozen.
    @Test(arguments: Route.leased)
    func aHolderFrozenInsideItsTransactionHoldsTheNextRunnerForNoLongerThanTheLease(route: Route) async throws {
        let direct = try await TestServer.freshDatabase()
        let url = route.url(direct)
        // The step waits in its transaction for as long as `slow` says so, until this test has seen
        // it there and frozen its runner (a fixed sleep, even of 15 s, went by unseen when the test
        // pool's threads were all blocked on other tests' processes), and not again for the runner
        // that takes over. Each statement of the DO block reads `slow` with a snapshot of its own.
        try await TestServer.admin(
            "CREATE TABLE counter (n int); INSERT INTO counter VALUES (0); CREATE TABLE slow (yes bool); INSERT INTO slow VALUES (true)",
            url: direct)
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: sql, id: count, with: {sql: "UPDATE counter SET n = n + 1; DO $$ BEGIN WHILE (SELECT yes FROM slow) LOOP PERFORM pg_sleep(0.05); END LOOP; END $$"}}
            """, to: "milepost.yaml")
        let frozen = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        let sleeping = """
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' AND query LIKE 'UPDATE counter%'
            """
        let deadline = ContinuousClock.now + .seconds(120)
        while try await TestServer.admin(sleeping, url: direct) != [["1"]], ContinuousClock.now < deadline, frozen.process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
        }
        if !frozen.process.isRunning {
            let ended = try frozen.wait()
            Issue.record("the runner ended before its step (\(ended.status)): \(ended.stderr)")
            return
        }
        kill(frozen.pid, SIGSTOP)
        defer { kill(frozen.pid, SIGCONT) }
        try #require(try await TestServer.admin(sleeping, url: direct) == [["1"]], "the runner was not frozen inside its step")
        try await TestServer.admin("UPDATE slow SET yes = false", url: direct)

        let next = try MilepostProcess(["run", "--store", url, "--to", "1.0", "--lock-timeout", "30s"], in: directory.path)
        // Guards the test against a runner that waits for as long as the holder stays frozen.
        let limit = ContinuousClock.now + .seconds(60)
        while next.process.isRunning, ContinuousClock.now < limit {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!next.process.isRunning, "the next runner still waits on the frozen holder's row lock")
        let taken = try next.wait()
        #expect(taken.status == 0, "\(taken.stderr)")
        let stored = "SELECT s.generation, s.version, (SELECT count(*) FROM milepost.journal), c.n FROM milepost.state s, counter c"
        let before = try await TestServer.admin(stored, url: direct)
        #expect(before[0][1] == "1.0" && before[0][3] == "1", "\(before)")
        // Continued, the frozen runner finds its transaction ended by the server and writes nothing.
        kill(frozen.pid, SIGCONT)
        let continued = try frozen.wait()
        #expect(try await TestServer.admin(stored, url: direct) == before, "\(continued.stderr)")
    }

    /// Through a pool of one server connection the lease's renewal queues behind the holder's own
    /// `sql` step transaction: the holder gives up its lease, and the error says what pool it needs.
    @Test func aPoolOfOneServerConnectionIsNamedWhenTheLeaseCannotBeRenewed() async throws {
        // scripts/pgbouncer-test-server.sh serves the test server's database as milepost_pool_of_one too.
        let pooled = TestPooler.through(TestServer.freshSchemaURL())
        let head = String(pooled.prefix { $0 != "?" })
        let server = String(head.prefix(upTo: head.lastIndex(of: "/") ?? head.endIndex))
        let url = server + "/milepost_pool_of_one" + String(pooled.dropFirst(head.count)) + "&milepost_lease=2s"
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: sql, id: long, with: {sql: "SELECT pg_sleep(30)"}}
            """, to: "milepost.yaml")
        let ran = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(ran.status == 74, "\(ran.stderr)")
        #expect(ran.stderr.contains("lost the lock of run"), "\(ran.stderr)")
        #expect(ran.stderr.contains("a runner needs two server connections at once (one for the step, one for the renewal)"), "\(ran.stderr)")
    }

    @Test(arguments: Route.allCases)
    func aFollowerWaitsForTheRunnerWithoutTakingTheLock(route: Route) async throws {
        let url = route.url(TestServer.freshSchemaURL())
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: exec, id: gate, with: {command: [sh, -c, 'echo $$ > step.pid; while [ ! -e go ]; do sleep 0.05; done']}}
            """, to: "milepost.yaml")
        let follower = try MilepostProcess(
            ["wait", "--store", url, "--to", "1.0", "--timeout", "5m", "--interval", "100ms"], in: directory.path)
        let runner = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        _ = try await directory.waitFor("step.pid")
        try await Task.sleep(for: .milliseconds(300))
        #expect(follower.process.isRunning, "wait returned while the step was still running")
        try directory.write("", to: "go")
        let ran = try runner.wait()
        #expect(ran.status == 0, "\(ran.stderr)")
        let waited = try follower.wait()
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stderr.contains("the store is at 1.0 (≥ 1.0)"), "\(waited.stderr)")
    }

    /// The schema a fresh-schema URL names.
    private func schema(_ url: String) -> String {
        url.components(separatedBy: "milepost_schema=").last.map { "\"\($0)\"" } ?? "milepost"
    }
}
