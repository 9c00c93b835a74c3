import Foundation
import MilepostTestSupport
import Testing

/// The gates agree with `run` on a PostgreSQL store (issue 43), as real processes: a rollback below
/// the compatibility floor is refused with exit 3 by `run`, `wait` and `status --check` alike, and
/// `run --existing-store` creates no schema for a store that does not exist.
@Suite(.onItsOwnThread, .enabled(if: TestServer.isConfigured, TestServer.missing))
struct GatePostgresTests {
    static let release1 = """
        app: shop
        migrations:
          "1.0": [{name: sql, id: add-nickname, with: {sql: "CREATE TABLE IF NOT EXISTS people (id int, nickname text)"}}]
        """
    static let release2 = release1 + """

          "2.0":
            - {name: sql, id: add-display-name, with: {sql: "ALTER TABLE people ADD COLUMN display_name text"}}
            - {name: sql, id: drop-nickname, phase: contract, with: {sql: "ALTER TABLE people DROP COLUMN nickname"}}
        """

    @Test func aRollbackBelowTheFloorIsRefusedByRunWaitAndStatusAlike() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try directory.write(Self.release1, to: "v1.yaml")
        try directory.write(Self.release2, to: "v2.yaml")
        func milepost(_ arguments: String...) throws -> (status: Int32, stderr: String, stdout: String) {
            let process = try MilepostProcess(arguments + ["--store", url], in: directory.path)
            let (status, stderr) = try process.wait()
            return (status, stderr, try process.stdout())
        }
        #expect(try milepost("run", "--manifest", "v1.yaml", "--to", "1.0").status == 0)
        #expect(try milepost("run", "--manifest", "v2.yaml", "--to", "2.0").status == 0)
        // Before the contract step, 1.0 is at the floor: every gate lets it start.
        #expect(try milepost("run", "--manifest", "v1.yaml", "--to", "1.0").status == 0)
        #expect(try milepost("wait", "--to", "1.0", "--timeout", "10s").status == 0)
        #expect(try milepost("status", "--manifest", "v1.yaml", "--to", "1.0", "--check").status == 0)

        #expect(try milepost("run", "--manifest", "v2.yaml", "--to", "2.0", "--phase", "contract").status == 0)
        let refusal = "1.0 is below the store's compatibility floor 2.0 (stored version 2.0); "
            + "the contract step 2.0/drop-nickname made older releases incompatible"
        let run = try milepost("run", "--manifest", "v1.yaml", "--to", "1.0")
        let wait = try milepost("wait", "--to", "1.0", "--timeout", "60s")
        let check = try milepost("status", "--manifest", "v1.yaml", "--to", "1.0", "--check")
        for (command, result, text) in [("run", run, run.stderr), ("wait", wait, wait.stderr), ("status --check", check, check.stdout)] {
            #expect(result.status == 3, "\(command): \(result.stderr)")
            #expect(text.contains(refusal), "\(command): \(text)")
        }
        #expect(check.stdout.contains("newer       2.0/drop-nickname"), "\(check.stdout)")
        #expect(!check.stdout.contains("orphan"), "\(check.stdout)")
    }

    @Test func existingStoreCreatesNoSchemaForAStoreThatDoesNotExist() async throws {
        let url = TestServer.freshSchemaURL()
        let schema = String(url[url.range(of: "milepost_schema=")!.upperBound...])
        let directory = try TestDirectory()
        try directory.write(Self.release1, to: "milepost.yaml")
        let refused = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--existing-store"], in: directory.path)
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains("it is a new store, and this run may only use an existing one; nothing was created"), "\(refused.stderr)")
        let schemata = "SELECT count(*) FROM information_schema.schemata WHERE schema_name = $1"
        #expect(try await TestServer.admin(schemata, [schema]) == [["0"]])
        #expect(try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path).status == 0)
        #expect(try await TestServer.admin(schemata, [schema]) == [["1"]])
        #expect(try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--existing-store"], in: directory.path).status == 0)
    }
}

/// `run --existing-store` creates no database for a MariaDB store that does not exist.
@Suite(.onItsOwnThread, .enabled(if: MariaDBTestServer.isConfigured, MariaDBTestServer.missing))
struct GateMariaDBTests {
    @Test func existingStoreCreatesNoDatabaseForAStoreThatDoesNotExist() async throws {
        let url = MariaDBTestServer.freshDatabaseURL()
        let database = String(url[url.range(of: "/milepost_t_")!.lowerBound...].dropFirst().prefix { $0 != "?" })
        let directory = try TestDirectory()
        try directory.write(GatePostgresTests.release1.replacingOccurrences(of: "name: sql", with: "name: exec")
            .replacingOccurrences(of: #"sql: "CREATE TABLE IF NOT EXISTS people (id int, nickname text)""#, with: "command: ['true']"),
            to: "milepost.yaml")
        let refused = try MilepostProcess.run(["run", "--store", url, "--to", "1.0", "--existing-store"], in: directory.path)
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(try await !MariaDBTestServer.exists(database))
        #expect(try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path).status == 0)
        #expect(try await MariaDBTestServer.exists(database))
    }
}
