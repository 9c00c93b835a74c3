import Foundation
import MilepostSystem
import MilepostTestSupport
import Testing

/// Real `milepost` processes on a `mysql://` store against the MariaDB test server: concurrent
/// runners, a killed holder whose lease lapses, a kill inside an atomic `mysql` step, and a frozen
/// holder fenced out.
@Suite(.onItsOwnThread, .enabled(if: MariaDBTestServer.isConfigured, MariaDBTestServer.missing))
struct MariaDBProcessTests {
    /// `url`'s database name.
    static func database(_ url: String) -> String {
        let head = url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url
        return String(head[head.index(after: head.lastIndex(of: "/")!)...])
    }

    /// `url` with a short lease, so a takeover comes within seconds.
    static func leased(_ url: String, _ lease: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "milepost_lease=" + lease
    }

    /// A lease whose expiry the server cannot hold (`5000000d`: past the year 9999, the server's
    /// "datetime field overflow", exit 74), or one too short (`100ms`, refused as 74 too), is the
    /// URL's fault: refused as usage (64) before anything is read or written (issue 42, item 11).
    @Test(arguments: [("5000000d", "give at most 24000000h"), ("100ms", "give at least 500ms")])
    func aLeaseTheStoreCannotHoldIsAUsageError(lease: String, reason: String) throws {
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\": [{name: exec, id: a, with: {command: [sh, -c, 'echo a >> ran.txt']}}]\n", to: "milepost.yaml")
        let refused = try MilepostProcess.run(
            ["run", "--store", Self.leased(MariaDBTestServer.freshDatabaseURL(), lease), "--to", "1.0"], in: directory.path)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("invalid URL parameter milepost_lease=\(lease): \(reason)"), "\(refused.stderr)")
        #expect(directory.read("ran.txt") == nil)
    }

    @Test func eightRunnersAtOnceRunEveryStepExactlyOnce() async throws {
        let url = MariaDBTestServer.freshDatabaseURL()
        let directory = try TestDirectory()
        try directory.write("""
            app: fleet
            migrations:
              "1.0":
                - {name: exec, id: note-a, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
              "1.1":
                - {name: mysql, id: seed, with: {sql: "CREATE TABLE IF NOT EXISTS seeded (n int)"}}
                - {name: mysql, id: fill, with: {sql: "INSERT INTO seeded VALUES (1); INSERT INTO seeded VALUES (2)"}}
                - {name: exec, id: note-b, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
            """, to: "milepost.yaml")
        let runners = try (0..<8).map { _ in
            try MilepostProcess(["run", "--store", url, "--to", "1.1", "--lock-timeout", "2m"], in: directory.path)
        }
        let results = try runners.map { try $0.wait() }
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/note-a\n1.1/note-b\n")
        #expect(try await MariaDBTestServer.admin("SELECT COUNT(*), SUM(n) FROM seeded", url: url) == [["2", "3"]])
        #expect(results.filter { $0.stderr.contains("4 steps ran") }.count == 1)
        // The DDL step says it was not atomic with its checkpoint; the INSERTs were.
        #expect(results.filter { $0.stderr.contains("DDL commits implicitly") }.count == 1)
        let status = try MilepostProcess(["status", "--store", url], in: directory.path)
        #expect(try status.wait().status == 0)
        let shown = try status.stdout()
        #expect(shown.contains("4 steps completed"), "\(shown)")
        #expect(!shown.contains("milepost:milepost@"), "\(shown)")
    }

    /// A failing statement fails the step and leaves nothing of it: not the statements before it,
    /// not a checkpoint.
    @Test func aFailingStatementLeavesNothing() async throws {
        let url = MariaDBTestServer.freshDatabaseURL()
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0": [{name: mysql, id: table, with: {sql: "CREATE TABLE IF NOT EXISTS items (n int)"}}]
              "2.0": [{name: mysql, id: fill, with: {sql: "INSERT INTO items VALUES (1); INSERT INTO nowhere VALUES (2)"}}]
            """, to: "milepost.yaml")
        let ran = try MilepostProcess.run(["run", "--store", url, "--to", "2.0"], in: directory.path)
        #expect(ran.status == 1, "\(ran.stderr)")
        #expect(ran.stderr.contains("nowhere' doesn't exist (error 1146)"), "\(ran.stderr)")
        #expect(try await MariaDBTestServer.admin("SELECT COUNT(*) FROM items", url: url) == [["0"]])
        #expect(try await MariaDBTestServer.admin(
            "SELECT JSON_VALUE(state, '$.failed.id'), JSON_LENGTH(state, '$.completed') FROM milepost_state", url: url)
            == [["2.0/fill", "1"]])
    }

    /// A kill -9 leaves the lease row naming the dead holder: the next runner waits for the lease to
    /// lapse, takes it over (journaled), and reports the step it left as interrupted.
    @Test func killingTheHolderMidStepLetsTheNextRunnerInAfterTheLease() async throws {
        let url = Self.leased(MariaDBTestServer.freshDatabaseURL(), "3s")
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\":\n    - \(FleetProcessTests.sleeper)\n", to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        let stepPID = try await directory.waitFor("step.pid")
        kill(holder.pid, SIGKILL)
        kill(Int32(stepPID.dropLast()) ?? 0, SIGKILL)
        _ = try holder.wait()

        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "60s"], in: directory.path)
        #expect(next.status == 2, "\(next.stderr)")
        #expect(next.stderr.contains("step 1.0/slow was interrupted (pid \(holder.pid) on "), "\(next.stderr)")
        let taken = try await MariaDBTestServer.admin(
            "SELECT COUNT(*) FROM milepost_journal WHERE record LIKE '%\"event\":\"lock-taken-over\"%' AND record LIKE '%\"step\":\"1.0\\/slow\"%'",
            url: url)
        #expect(taken == [["1"]])
    }

    /// A kill -9 inside a `mysql` step (its INSERT done, its checkpoint not yet written) leaves
    /// neither: the next runner runs it again, once.
    @Test func killingTheHolderInsideTheStepLeavesNeitherTheWorkNorTheCheckpoint() async throws {
        let url = Self.leased(MariaDBTestServer.freshDatabaseURL(), "3s")
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0": [{name: mysql, id: table, with: {sql: "CREATE TABLE IF NOT EXISTS items (n int)"}}]
              "2.0":
                - {name: mysql, id: fill, with: {sql: "INSERT INTO items VALUES (1); SELECT SLEEP(300)"}}
            """, to: "milepost.yaml")
        let setup = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(setup.status == 0, "\(setup.stderr)")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "2.0"], in: directory.path)
        // The step sleeps in the server with its INSERT done (for 5 minutes: longer than this test
        // may be starved of the pool by the blocking tests beside it): seen in the process list,
        // polled gently (a query of the server's own, no lock the runner uses).
        let database = Self.database(url)
        let deadline = ContinuousClock.now + .seconds(240)
        var sleeping: [[String?]] = []
        while sleeping.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(250))
            sleeping = try await MariaDBTestServer.admin(
                "SELECT id FROM information_schema.processlist WHERE db = ? AND info = 'SELECT SLEEP(300)'", [database])
        }
        #expect(!sleeping.isEmpty, "the step never started")
        kill(holder.pid, SIGKILL)
        _ = try holder.wait()
        // The dead runner's session sleeps on with its transaction open; its INSERT is not seen.
        #expect(try await MariaDBTestServer.admin("SELECT COUNT(*) FROM items", url: url) == [["0"]])
        // Ended (as the server ends it once it finds the client gone: then KILL finds no such thread,
        // error 1094), its transaction is rolled back.
        for row in sleeping {
            do {
                try await MariaDBTestServer.admin("KILL \(row[0] ?? "0")")
            } catch where "\(error)".contains("Unknown thread id") {}
        }
        #expect(try await MariaDBTestServer.admin("SELECT COUNT(*) FROM items", url: url) == [["0"]])
        #expect(try await MariaDBTestServer.admin("SELECT state LIKE '%2.0/fill%' FROM milepost_state", url: url) == [["0"]])

        try directory.write("""
            migrations:
              "1.0": [{name: mysql, id: table, with: {sql: "CREATE TABLE IF NOT EXISTS items (n int)"}}]
              "2.0": [{name: mysql, id: fill, with: {sql: "INSERT INTO items VALUES (1)"}}]
            """, to: "milepost.yaml")
        let next = try MilepostProcess.run(["run", "--store", url, "--to", "2.0", "--lock-timeout", "60s"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try await MariaDBTestServer.admin("SELECT COUNT(*) FROM items", url: url) == [["1"]])
    }

    /// A holder frozen past its lease (SIGSTOP) loses the lock to the next runner; continued, it
    /// finds the lease taken and its checkpoint is refused by the fence: nothing it writes lands.
    @Test func aFrozenHolderIsFencedOutOnceAnotherRunnerTookTheLease() async throws {
        let url = Self.leased(MariaDBTestServer.freshDatabaseURL(), "2s")
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: exec, id: wait, idempotent: true, with: {command: [sh, -c, 'echo $$ > step.pid; while [ ! -e go ]; do sleep 0.1; done; echo $MILEPOST_STEP >> ran.txt']}}
            """, to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", url, "--to", "1.0"], in: directory.path)
        defer { kill(holder.pid, SIGKILL) }
        let stepPID = try #require(Int32(try await directory.waitFor("step.pid").dropLast()))
        kill(holder.pid, SIGSTOP)
        kill(stepPID, SIGSTOP)
        // The step's process group is stopped, not gone; the next runner waits for the lease, then
        // for the group, which it finds alive: it refuses to start a second copy (exit 75).
        let next = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--lock-timeout", "10s"], in: directory.path)
        #expect(next.status == 75, "\(next.stderr)")
        try directory.write("", to: "go")
        kill(stepPID, SIGCONT)
        kill(holder.pid, SIGCONT)
        let result = try holder.wait()
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("lost the lock") || result.stderr.contains("refused by the fence"), "\(result.stderr)")
        #expect(try await MariaDBTestServer.admin("SELECT state LIKE '%\"completed\":[]%' OR state NOT LIKE '%1.0/wait%' FROM milepost_state", url: url) == [["1"]])
    }

    @Test func theMySQLStepIsRefusedBeforeAnyStepOnAnotherStore() throws {
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: exec, id: first, with: {command: [sh, -c, 'echo ran >> ran.txt']}}
                - {name: mysql, id: seed, with: {sql: "SELECT 1"}}
            """, to: "milepost.yaml")
        let ran = try MilepostProcess.run(["run", "--to", "1.0"], in: directory.path)
        #expect(ran.status == 65, "\(ran.stderr)")
        #expect(ran.stderr.contains("the mysql step needs a MariaDB/MySQL store (--store mysql://…)"), "\(ran.stderr)")
        #expect(directory.read("ran.txt") == nil)
    }

    /// `milepost store copy` into and out of a MariaDB store: a file store moved into it keeps its
    /// history and the fleet goes on; copied on into SQLite, the same state and journal.
    @Test func aFileStoreCopiedIntoMariaDBKeepsItsHistoryAndTheFleetGoesOn() async throws {
        let url = MariaDBTestServer.freshDatabaseURL()
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0": [{name: exec, id: a, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}]
              "1.1": [{name: exec, id: b, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}]
            """, to: "milepost.yaml")
        #expect(try MilepostProcess.run(["run", "--to", "1.0"], in: directory.path).status == 0)
        let journal = directory.read(".milepost/journal.jsonl") ?? ""
        let copy = try MilepostProcess.run(["store", "copy", "--from", ".milepost", "--to", url], in: directory.path)
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(!copy.stderr.contains("milepost:milepost@"), "\(copy.stderr)")
        #expect(try await MariaDBTestServer.admin("SELECT COUNT(*) FROM milepost_journal", url: url)
            == [[String(journal.split(separator: "\n").count)]])
        #expect(try MilepostProcess.run(["store", "copy", "--from", ".milepost", "--to", url], in: directory.path).status == 64)

        let runners = try (0..<4).map { _ in try MilepostProcess(["run", "--store", url, "--to", "1.1", "--lock-timeout", "2m"], in: directory.path) }
        for runner in runners {
            let result = try runner.wait()
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/a\n1.1/b\n")
        let onward = try MilepostProcess.run(["store", "copy", "--from", url, "--to", "sqlite:app.db"], in: directory.path)
        #expect(onward.status == 0, "\(onward.stderr)")
        let again = try MilepostProcess.run(["run", "--store", "sqlite:app.db", "--to", "1.1"], in: directory.path)
        #expect(again.stderr.contains("up to date"), "\(again.stderr)")
    }
}
