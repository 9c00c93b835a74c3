import Foundation
import Testing

/// The database connection lost while a step runs: the run ends with exit 69 and the libpq message
/// on one line; a step that completed meanwhile is named with the `resolve` that records it, and it
/// never runs a second time.
@Suite(.enabled(if: TestServer.isConfigured, TestServer.missing))
struct LostConnectionTests {
    @Test func aStepThatCompletedAfterTheConnectionWasCutIsNamedWithItsResolve() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - name: exec
                  id: cut
                  with: {command: [sh, -c, 'echo ready > ready; while [ ! -e go ]; do sleep 0.05; done; echo cut >> ran.txt']}
              "1.1":
                - {name: exec, id: second, with: {command: [sh, -c, 'echo second >> ran.txt']}}
            """, to: "milepost.yaml")
        let runner = try MilepostProcess(["run", "--store", url, "--to", "1.1"], in: directory.path)
        _ = try await directory.waitFor("ready")
        // What a server restart, a failover or an idle-session killer does to every session of the runner.
        let cut = try await TestServer.admin("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
            """, url: url)
        #expect(cut != [["0"]])
        try directory.write("", to: "go")
        let first = try runner.wait()
        #expect(first.status == 69, "\(first.stderr)")
        #expect(first.stderr.contains("1.0/cut succeeded, but the store could not record it"), "\(first.stderr)")
        #expect(first.stderr.contains("the connection was lost: server closed the connection unexpectedly This probably means"), "\(first.stderr)")
        #expect(!first.stderr.contains(#"\n"#) && !first.stderr.contains(".."), "\(first.stderr)")
        #expect(first.stderr.contains("`milepost resolve 1.0/cut --done --store \(url)` records it as done"), "\(first.stderr)")

        let blocked = try MilepostProcess.run(["run", "--store", url, "--to", "1.1"], in: directory.path)
        #expect(blocked.status == 2, "\(blocked.stderr)")
        let resolved = try MilepostProcess.run(["resolve", "1.0/cut", "--done", "--store", url], in: directory.path)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let rest = try MilepostProcess.run(["run", "--store", url, "--to", "1.1"], in: directory.path)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(directory.read("ran.txt") == "cut\nsecond\n")
    }
}
