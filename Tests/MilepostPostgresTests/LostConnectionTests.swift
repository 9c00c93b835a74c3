import Foundation
import MilepostTestSupport
import Testing

/// The database connection lost while a step runs. A restart, a fail-over, a pooler restart or an
/// idle-session killer: the runner reconnects and records the step (every checkpoint is fenced, so
/// that is safe), then goes on. A server gone for longer than the reconnection tries: the run ends
/// with exit 69 and the libpq message on one line; the step that completed meanwhile is named with
/// the `resolve` that records it, and it never runs a second time.
@Suite(.onItsOwnThread, .enabled(if: TestPooler.isConfigured, TestPooler.missing))
struct LostConnectionTests {
    static let manifest = """
        migrations:
          "1.0":
            - name: exec
              id: cut
              with: {command: [sh, -c, 'echo ready > ready; while [ ! -e go ]; do sleep 0.05; done; echo cut >> ran.txt']}
          "1.1":
            - {name: exec, id: second, with: {command: [sh, -c, 'echo second >> ran.txt']}}
        """

    /// What a server restart, a fail-over or an idle-session killer does to every session of the runner.
    static func cutEverySession(of url: String) async throws {
        let database = String(url.split(separator: "/").last?.split(separator: "?").first ?? "")
        let cut = try await TestServer.admin("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'
            """, [database])
        #expect(cut != [["0"]])
    }

    @Test(arguments: Route.allCases)
    func aRestartMidStepIsRecordedOnANewConnectionAndTheLockIsReleased(route: Route) async throws {
        let direct = try await TestServer.freshDatabase()
        let url = route.url(direct)
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let runner = try MilepostProcess(["run", "--store", url, "--to", "1.1"], in: directory.path)
        _ = try await directory.waitFor("ready")
        try await Self.cutEverySession(of: direct)
        try directory.write("", to: "go")
        let ran = try runner.wait()
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(directory.read("ran.txt") == "cut\nsecond\n")
        #expect(try await TestServer.admin("SELECT version, in_progress FROM milepost.state", url: direct) == [["1.1", nil]])
        #expect(try await TestServer.admin("SELECT run FROM milepost.lease", url: direct) == [[nil]])
        let again = try MilepostProcess.run(["run", "--store", url, "--to", "1.1", "--lock-timeout", "1s"], in: directory.path)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(directory.read("ran.txt") == "cut\nsecond\n")
    }

    /// Under a lease that outlasts the reconnection tries: the session lock's 4 s hold would stop a
    /// step that a loaded machine lets finish only after it (the step must end first). The next run
    /// waits for the dead run's lease to lapse.
    @Test func aStepThatCompletedWhileTheServerStayedAwayIsNamedWithItsResolve() async throws {
        let direct = try await TestServer.freshDatabase()
        let database = String(direct.split(separator: "/").last ?? "")
        let url = direct + "?milepost_lock=lease&milepost_lease=15s"
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let runner = try MilepostProcess(["run", "--store", url, "--to", "1.1"], in: directory.path)
        _ = try await directory.waitFor("ready")
        // The server stays away for longer than the runner's reconnection tries (about 8 s).
        try await TestServer.admin("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS false")
        try await Self.cutEverySession(of: direct)
        try directory.write("", to: "go")
        let first = try runner.wait()
        try await TestServer.admin("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS true")
        #expect(first.status == 69, "\(first.stderr)")
        #expect(first.stderr.contains("1.0/cut succeeded, but the store could not record it"), "\(first.stderr)")
        #expect(first.stderr.contains("the connection was lost: server closed the connection unexpectedly This probably means"), "\(first.stderr)")
        #expect(!first.stderr.contains(#"\n"#) && !first.stderr.contains(".."), "\(first.stderr)")
        #expect(first.stderr.contains("`milepost resolve 1.0/cut --done --store '\(url)'` records it as done"), "\(first.stderr)")

        let blocked = try MilepostProcess.run(["run", "--store", url, "--to", "1.1"], in: directory.path)
        #expect(blocked.status == 2, "\(blocked.stderr)")
        let resolved = try MilepostProcess.run(["resolve", "1.0/cut", "--done", "--store", url], in: directory.path)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let rest = try MilepostProcess.run(["run", "--store", url, "--to", "1.1"], in: directory.path)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(directory.read("ran.txt") == "cut\nsecond\n")
    }
}
