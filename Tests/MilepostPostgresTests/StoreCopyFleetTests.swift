import Foundation
import MilepostTestSupport
import Testing

/// A host that grows into a fleet: its file store copied into PostgreSQL (directly and through
/// PgBouncer) with `milepost store copy`, and the fleet goes on from there.
@Suite(.onItsOwnThread, .enabled(if: TestPooler.isConfigured, TestPooler.missing))
struct StoreCopyFleetTests {
    @Test(arguments: [Route.direct, Route.pgbouncer])
    func aFileStoreCopiedIntoPostgreSQLKeepsItsHistoryAndTheFleetGoesOn(route: Route) async throws {
        let url = route.url(try await TestServer.freshDatabase(), lease: "30s")
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
        #expect(directory.read(".milepost/journal.jsonl") == journal, "the source is only read")
        let database = TestServer.direct(url)
        #expect(try await TestServer.admin("SELECT version FROM milepost.state", url: database) == [["1.0"]])
        #expect(try await TestServer.admin("SELECT count(*) FROM milepost.journal", url: database)
            == [[String(journal.split(separator: "\n").count)]])
        #expect(try MilepostProcess.run(["store", "copy", "--from", ".milepost", "--to", url], in: directory.path).status == 64)

        let runners = try (0..<4).map { _ in try MilepostProcess(["run", "--store", url, "--to", "1.1", "--lock-timeout", "2m"], in: directory.path) }
        for runner in runners {
            let result = try runner.wait()
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/a\n1.1/b\n")
        #expect(try await TestServer.admin(
            "SELECT string_agg(id, ',' ORDER BY position) FROM milepost.completed_steps", url: database) == [["1.0/a,1.1/b"]])
    }
}
