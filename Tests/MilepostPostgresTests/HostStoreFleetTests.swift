import Foundation
import MilepostTestSupport
import Testing

/// `scope: host` steps on hosts that share one PostgreSQL fleet store: each host records its host
/// steps in its own directory (`--host-store`), the fleet steps once in the database.
@Suite(.onItsOwnThread, .enabled(if: TestPooler.isConfigured, TestPooler.missing))
struct HostStoreFleetTests {
    @Test(arguments: [Route.direct, Route.pgbouncer])
    func threeHostsShareTheFleetStoreAndEachRunsItsHostStepsOnce(route: Route) async throws {
        let url = route.url(try await TestServer.freshDatabase(), lease: "30s")
        let shared = try TestDirectory()
        let log = shared.path + "/ran.txt"
        // Each host has its own copy of the release (its manifest) and its own host store.
        let manifest = """
            migrations:
              "1.0":
                - {name: exec, id: schema, with: {command: [sh, -c, 'echo "$MILEPOST_STEP $(basename "$PWD")" >> \(log)']}}
                - {name: exec, id: local-config, scope: host, with: {command: [sh, -c, 'echo "$MILEPOST_STEP $(basename "$PWD")" >> \(log)']}}
              "1.1":
                - {name: exec, id: data, with: {command: [sh, -c, 'echo "$MILEPOST_STEP $(basename "$PWD")" >> \(log)']}}
            """
        for host in ["a", "b", "c"] {
            try FileManager.default.createDirectory(atPath: shared.path + "/" + host, withIntermediateDirectories: true)
            try shared.write(manifest, to: host + "/milepost.yaml")
        }
        let arguments = ["run", "--store", url, "--host-store", "host-store", "--to", "1.1", "--lock-timeout", "2m"]
        // Two hosts start at once.
        let starting = try ["a", "b"].map { try MilepostProcess(arguments, in: shared.path + "/" + $0) }
        for runner in starting {
            let result = try runner.wait()
            #expect(result.status == 0, "\(result.stderr)")
        }
        // A third joins after the fleet reached 1.1.
        let late = try MilepostProcess.run(arguments, in: shared.path + "/c")
        #expect(late.status == 0, "\(late.stderr)")
        let lines = (shared.read("ran.txt") ?? "").split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("1.0/schema ") }.count == 1, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("1.1/data ") }.count == 1, "\(lines)")
        #expect(Set(lines.filter { $0.hasPrefix("1.0/local-config ") }) == ["1.0/local-config a", "1.0/local-config b", "1.0/local-config c"])
        #expect(lines.count == 5)
        // Every step ran before the fleet's version moved, in threshold order on each host.
        #expect(try await TestServer.admin("SELECT version FROM milepost.state", url: TestServer.direct(url)) == [["1.1"]])
        #expect(try await TestServer.admin(
            "SELECT string_agg(id, ',' ORDER BY position) FROM milepost.completed_steps", url: TestServer.direct(url))
            == [["1.0/schema,1.1/data"]])
        for host in ["a", "b", "c"] {
            let again = try MilepostProcess.run(arguments, in: shared.path + "/" + host)
            #expect(again.status == 0)
            #expect(again.stderr.contains("up to date at 1.1"), "\(again.stderr)")
        }
        #expect((shared.read("ran.txt") ?? "").split(separator: "\n").count == 5)
    }
}
