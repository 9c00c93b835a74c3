import CSQLite
import Foundation
import MilepostSQLite
import MilepostSystem
import MilepostTestSupport
import Testing

/// Real `milepost` processes on a `sqlite:` store: the same guarantees as the file store's and the
/// PostgreSQL store's, and the `sqlite` step in its checkpoint's transaction. Needs no server.
@Suite(.onItsOwnThread) struct SQLiteProcessTests {
    /// Rows of `sql` run on the database `path`, each column as text.
    static func query(_ path: String, _ sql: String) throws -> [[String?]] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
            throw Failure(message: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(handle) }
        sqlite3_busy_timeout(handle, 10_000)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) }
            })
        }
        return rows
    }

    struct Failure: Error { var message: String }

    /// True when another connection holds the database's write lock (a `BEGIN IMMEDIATE` without
    /// waiting is refused): inside a `sqlite` step, its transaction is open.
    /// The user and system CPU time of `pid` in clock ticks (`/proc/PID/stat`), 0 when unreadable.
    static func cpuTicks(of pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // After the command name: state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    static func isWriteLocked(_ path: String) -> Bool {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else { return false }
        defer { sqlite3_close_v2(handle) }
        let code = sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
        if code == SQLITE_OK { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
        return code & 0xff == SQLITE_BUSY
    }

    @Test func eightRunnersAtOnceRunEveryStepExactlyOnce() async throws {
        let directory = try TestDirectory()
        try directory.write("""
            app: fleet
            migrations:
              "1.0":
                - {name: exec, id: note-a, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
              "1.1":
                - {name: sqlite, id: seed, with: {sql: "CREATE TABLE seeded (n int); INSERT INTO seeded VALUES (1)"}}
                - {name: exec, id: note-b, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
            """, to: "milepost.yaml")
        let runners = try (0..<8).map { _ in
            try MilepostProcess(["run", "--store", "sqlite:app.db", "--to", "1.1", "--lock-timeout", "2m"], in: directory.path)
        }
        let results = try runners.map { try $0.wait() }
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/note-a\n1.1/note-b\n")
        let database = directory.path + "/app.db"
        #expect(try Self.query(database, "SELECT count(*) FROM seeded") == [["1"]])
        #expect(results.filter { $0.stderr.contains("3 steps ran") }.count == 1)
        for file in ["app.db", "app.db.milepost-lock"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: directory.path + "/" + file)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(file)")
        }
        let status = try MilepostProcess.run(["status", "--store", "sqlite:app.db"], in: directory.path)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try Self.query(database, "PRAGMA journal_mode") == [["wal"]])
        // The same store, named by its absolute path: up to date.
        let again = try MilepostProcess.run(["run", "--store", "sqlite://" + database, "--to", "1.1"], in: directory.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("up to date"), "\(again.stderr)")
    }

    @Test func aSpecNamesTheDatabaseRelativeOrAbsolute() {
        #expect(SQLiteStore(spec: "sqlite:app.db")?.path == "app.db")
        #expect(SQLiteStore(spec: "sqlite:../data/app.db")?.path == "../data/app.db")
        #expect(SQLiteStore(spec: "sqlite:/var/lib/app.db")?.path == "/var/lib/app.db")
        #expect(SQLiteStore(spec: "sqlite:///var/lib/app.db")?.path == "/var/lib/app.db")
        #expect(SQLiteStore(spec: "sqlite:") == nil)
        #expect(SQLiteStore(spec: "sqlite://host/app.db") == nil)
        #expect(SQLiteStore(spec: "postgres://db/app") == nil)
        #expect(SQLiteStore(spec: "sqlite:app.db")?.location == "sqlite:app.db")
    }

    @Test func killingTheHolderMidStepLetsTheNextRunnerInAtOnceToReportTheInterruptedStep() async throws {
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\":\n    - \(FleetProcessTests.sleeper)\n", to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", "sqlite:app.db", "--to", "1.0"], in: directory.path)
        let stepPID = try await directory.waitFor("step.pid")
        kill(holder.pid, SIGKILL)
        kill(Int32(stepPID.dropLast()) ?? 0, SIGKILL)
        _ = try holder.wait()

        let next = try MilepostProcess.run(["run", "--store", "sqlite:app.db", "--to", "1.0", "--lock-timeout", "1s"], in: directory.path)
        #expect(next.status == 2, "\(next.stderr)")
        #expect(next.stderr.contains("step 1.0/slow was interrupted (pid \(holder.pid) on "), "\(next.stderr)")
    }

    @Test func aWaitingRunnerExits75AfterTheLockTimeoutNamingTheHolder() async throws {
        let directory = try TestDirectory()
        try directory.write("migrations:\n  \"1.0\":\n    - \(FleetProcessTests.sleeper)\n", to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", "sqlite:app.db", "--to", "1.0"], in: directory.path)
        _ = try await directory.waitFor("step.pid")

        let waiter = try MilepostProcess.run(["run", "--store", "sqlite:app.db", "--to", "1.0", "--lock-timeout", "1s"], in: directory.path)
        kill(holder.pid, SIGTERM)
        #expect(try holder.wait().status == 143)
        #expect(waiter.status == 75, "\(waiter.stderr)")
        #expect(waiter.stderr.contains("held by pid \(holder.pid) on \(ProcessIdentity.host) since "), "\(waiter.stderr)")
    }

    /// A failing statement fails the step and leaves nothing of it: not the statements before it,
    /// not a checkpoint.
    @Test func aFailingStatementLeavesNothing() async throws {
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: sqlite, id: fill, with: {sql: "CREATE TABLE items (n int); INSERT INTO items VALUES (1); INSERT INTO nowhere VALUES (2)"}}
            """, to: "milepost.yaml")
        let ran = try MilepostProcess.run(["run", "--store", "sqlite:app.db", "--to", "1.0"], in: directory.path)
        #expect(ran.status == 1, "\(ran.stderr)")
        #expect(ran.stderr.contains("no such table: nowhere"), "\(ran.stderr)")
        let database = directory.path + "/app.db"
        #expect(try Self.query(database, "SELECT count(*) FROM sqlite_master WHERE name = 'items'") == [["0"]])
        #expect(try Self.query(database, "SELECT json_extract(state, '$.failed.id'), json_array_length(state, '$.completed') FROM milepost_state")
            == [["1.0/fill", "0"]])
    }

    /// A kill -9 inside the step (its statements run, its checkpoint not yet written) leaves
    /// neither: the next runner runs it again, once.
    @Test func killingTheHolderInsideTheStepLeavesNeitherTheWorkNorTheCheckpoint() async throws {
        let directory = try TestDirectory()
        // The step's SQL is slow enough to be killed inside: a recursive count to a large number.
        try directory.write("""
            migrations:
              "1.0":
                - name: sqlite
                  id: fill
                  with:
                    sql: |
                      CREATE TABLE items (n int);
                      INSERT INTO items VALUES (1);
                      WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) FROM c;
            """, to: "milepost.yaml")
        let holder = try MilepostProcess(["run", "--store", "sqlite:app.db", "--to", "1.0"], in: directory.path)
        // The runner names itself in the sidecar lock once it holds the lock; then its step's count,
        // which takes minutes, burns CPU inside the step's transaction. Waiting for a second of the
        // runner's CPU time (/proc/PID/stat) touches nothing the runner uses: probing the database's
        // write lock (BEGIN IMMEDIATE) competed with the runner for it on a loaded CI. One probe,
        // once the runner is in its count, shows the transaction open.
        let database = directory.path + "/app.db"
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline,
              (try? String(contentsOfFile: database + ".milepost-lock", encoding: .utf8))?.contains(#""run""#) != true {
            try await Task.sleep(for: .milliseconds(50))
        }
        while ContinuousClock.now < deadline, Self.cpuTicks(of: holder.pid) < 100 {
            try await Task.sleep(for: .milliseconds(100))
        }
        let inStep = Self.isWriteLocked(database)
        #expect(inStep, "the step's transaction never opened")
        kill(holder.pid, SIGKILL)
        _ = try holder.wait()
        #expect(try Self.query(database, "SELECT count(*) FROM sqlite_master WHERE name = 'items'") == [["0"]])
        #expect(try Self.query(database, "SELECT count(*) FROM milepost_state WHERE state LIKE '%1.0/fill%'") == [["0"]])

        try directory.write("""
            migrations:
              "1.0":
                - name: sqlite
                  id: fill
                  with:
                    sql: |
                      CREATE TABLE items (n int);
                      INSERT INTO items VALUES (1);
            """, to: "milepost.yaml")
        let next = try MilepostProcess.run(["run", "--store", "sqlite:app.db", "--to", "1.0", "--lock-timeout", "60s"], in: directory.path)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.query(database, "SELECT count(*) FROM items") == [["1"]])
    }

    @Test func theSQLiteStepIsRefusedBeforeAnyStepOnAnotherStore() throws {
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: exec, id: first, with: {command: [sh, -c, 'echo ran >> ran.txt']}}
                - {name: sqlite, id: seed, with: {sql: "SELECT 1"}}
            """, to: "milepost.yaml")
        let ran = try MilepostProcess.run(["run", "--to", "1.0"], in: directory.path)
        #expect(ran.status == 65, "\(ran.stderr)")
        #expect(ran.stderr.contains("the sqlite step needs a SQLite store (--store sqlite:PATH)"), "\(ran.stderr)")
        #expect(directory.read("ran.txt") == nil)
    }
}
