import Foundation
import MilepostSystem
import MilepostTestSupport
import Testing

/// Real `milepost` processes against the real test server: the fleet guarantees.
@Suite(.onItsOwnThread, .enabled(if: TestServer.isConfigured, TestServer.missing))
struct FleetProcessTests {
    /// A step that writes its shell's pid to `step.pid`, then sleeps until killed (5 minutes: longer
    /// than a test may be starved of the pool by the blocking tests that run beside it).
    static let sleeper = #"{name: exec, id: slow, with: {command: [sh, -c, 'echo $$ > step.pid; exec sleep 300']}}"#

    @Test func twentyRunnersAtOnceOnAnEmptyDatabaseRunEveryStepExactlyOnce() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try directory.write("""
            app: fleet
            migrations:
              "1.0":
                - {name: exec, id: note-a, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
              "1.1":
                - {name: sql, id: seed, with: {sql: "CREATE TABLE seeded (n int); INSERT INTO seeded VALUES (1)"}}
                - {name: exec, id: note-b, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
            """, to: "milepost.yaml")
        let runners = try (0..<20).map { _ in
            try MilepostProcess(["run", "--store", url, "--to", "1.1", "--lock-timeout", "2m"], in: directory.path)
        }
        let results = try runners.map { try $0.wait() }
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/note-a\n1.1/note-b\n")
        #expect(try await TestServer.admin("SELECT count(*) FROM seeded", url: url) == [["1"]])
        #expect(try await TestServer.admin(
            "SELECT string_agg(id, ',' ORDER BY position) FROM milepost.completed_steps", url: url)
            == [["1.0/note-a,1.1/seed,1.1/note-b"]])
        #expect(results.filter { $0.stderr.contains("3 steps ran") }.count == 1)
    }

    /// An `sql` step's `file:` is read relative to the manifest, through the same reader as the
    /// manifest: a regular file only (a FIFO does not block the run), under a size cap.
    @Test func anSQLFileIsReadRelativeToTheManifestAndOnlyIfItIsARegularFile() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try FileManager.default.createDirectory(atPath: directory.path + "/app", withIntermediateDirectories: true)
        try directory.write("CREATE TABLE from_file (n int);\n", to: "app/schema.sql")
        try directory.write("""
            migrations:
              "1.0": [{name: sql, id: schema, with: {file: schema.sql}}]
              "2.0": [{name: sql, id: piped, with: {file: pipe.sql}}]
            """, to: "app/milepost.yaml")
        #expect(mkfifo(directory.path + "/app/pipe.sql", 0o600) == 0)
        let first = try MilepostProcess.run(
            ["run", "--store", url, "--manifest", "app/milepost.yaml", "--to", "1.0"], in: directory.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try await TestServer.admin("SELECT count(*) FROM from_file", url: url) == [["0"]])
        let second = try MilepostProcess.run(
            ["run", "--store", url, "--manifest", "app/milepost.yaml", "--to", "2.0"], in: directory.path)
        #expect(second.status == 1, "\(second.stderr)")
        #expect(second.stderr.contains("cannot read app/pipe.sql: not a regular file (a FIFO)"), "\(second.stderr)")
    }

    @Test func killingTheHolderMidStepLetsTheNextRunnerInAtOnceToReportTheInterruptedStep() async throws {
        let url = TestServer.freshSchemaURL()
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\":\n    - \(Self.sleeper)\n", to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        let stepPID = try await directory.waitFor("step.pid")
        kill(holder.pid, SIGKILL)
        // The orphaned step keeps an inherited descriptor that `wait()` waits on: end it too.
        kill(Int32(stepPID.dropLast()) ?? 0, SIGKILL)
        _ = try holder.wait()

        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "5s"], in: directory.path)
        #expect(next.status == 2, "\(next.stderr)")
        #expect(next.stderr.contains("step 1.0/slow was interrupted (pid \(holder.pid) on "), "\(next.stderr)")
    }

    /// The state in PostgreSQL records the step's process group: after a kill -9 of its runner,
    /// what the step left in its group is seen alive and the next run refuses (exit 75) instead of
    /// starting a second copy; once it is gone, the idempotent step runs again.
    @Test func aKilledRunnersStepWhoseProcessesLiveOnIsNotStartedAgainWhileTheyRun() async throws {
        let url = TestServer.freshSchemaURL()
        let directory = try TestDirectory()
        try directory.write(#"""
            migrations:
              "1.0":
                - {name: exec, id: slow, idempotent: true, with: {command: [sh, -c, 'echo x >> ran.txt; [ -e hang ] && (sleep 300 & echo $! > orphan.pid; wait) & echo $$ > step.pid; wait']}}
            """#, to: "milepost.yaml")
        try directory.write("", to: "hang")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        let group = try #require(Int32(try await directory.waitFor("step.pid").dropLast()))
        let orphan = try #require(Int32(try await directory.waitFor("orphan.pid").dropLast()))
        kill(holder.pid, SIGKILL)
        defer {
            kill(-group, SIGKILL)
            _ = try? holder.wait()
        }
        // The leader dies with its runner; the sleep it left in its group lives on.
        let deadline = ContinuousClock.now + .seconds(60)
        while ProcessGroupScan.members(of: group).contains(group), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(ProcessGroupScan.members(of: group).contains(orphan))

        // The killed holder's lock row keeps its hold for a few seconds (LeaseHeartbeat): the lock is
        // waited for first, then the step's processes, and these outlive both waits.
        let refused = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "5s"], in: directory.path)
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("step 1.0/slow is still running"), "\(refused.stderr)")
        #expect(refused.stderr.contains("process group \(group)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("\(orphan)"), "\(refused.stderr)")
        let status = try MilepostProcess(["status", "--store", url, "--format", "json"], in: directory.path)
        #expect(try status.wait().status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(try status.stdout().utf8)) as? [String: Any])
        let running = try #require(document["running"] as? [String: Any], "\(document)")
        #expect((running["process_group"] as? [String: Any])?["id"] as? Int == Int(group), "\(document)")

        try FileManager.default.removeItem(atPath: directory.path + "/hang")
        kill(-group, SIGKILL)
        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "60s"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(directory.read("ran.txt") == "x\nx\n")
    }

    @Test func killingTheHolderMidSQLStepRollsTheStepBackAndTheNextRunnerRunsItAgain() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        let marker = "go_" + TestServer.uniqueName()
        try directory.write("""
            migrations:
              "1.0":
                - name: sql
                  id: fill
                  with:
                    sql: |
                      CREATE TABLE items (n int);
                      INSERT INTO items VALUES (1);
                      SELECT pg_sleep(60) WHERE to_regclass('\(marker)') IS NULL;
            """, to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        let deadline = ContinuousClock.now + .seconds(60)
        while try await TestServer.admin(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()",
            url: url) == [["0"]], ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        kill(holder.pid, SIGKILL)
        _ = try holder.wait()
        try await TestServer.admin("CREATE TABLE \(marker) ()", url: url)

        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "5s"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try await TestServer.admin("SELECT count(*) FROM items", url: url) == [["1"]])
        let events = try await TestServer.admin("SELECT event FROM milepost.journal ORDER BY seq", url: url).map { $0[0] ?? "" }
        #expect(events == ["run-started", "run-started", "step-started", "step-succeeded", "run-finished"])
    }

    @Test func aWaitingRunnerExits75AfterTheLockTimeoutNamingTheHolder() async throws {
        let url = TestServer.freshSchemaURL()
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\":\n    - \(Self.sleeper)\n", to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        _ = try await directory.waitFor("step.pid")

        let waiter = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "1s"], in: directory.path)
        kill(holder.pid, SIGTERM)
        #expect(try holder.wait().status == 143)
        #expect(waiter.status == 75, "\(waiter.stderr)")
        #expect(waiter.stderr.contains("held by pid \(holder.pid) on \(ProcessIdentity.host) since "), "\(waiter.stderr)")
    }
}

/// Needs no server: the point is that there is none.
@Suite(.onItsOwnThread) struct UnreachableServerTests {
    @Test(arguments: [["run", "--to", "1.0"], ["status"], ["history"], ["baseline", "1.0"]])
    func everyCommandExits69NamingTheServerButNotThePassword(command: [String]) throws {
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\": [{name: exec, with: {command: [\"true\"]}}]\n", to: "milepost.yaml")
        let result = try MilepostProcess.run(command + ["--store", "postgres://fleet:hunter2@127.0.0.1:1/shop"], in: directory.path)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("host 127.0.0.1 port 1 database shop user fleet"), "\(result.stderr)")
        #expect(!result.stderr.contains("hunter2"))
    }
}
