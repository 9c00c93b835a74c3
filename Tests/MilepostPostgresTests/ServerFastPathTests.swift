import Foundation
import MilepostTestSupport
import Testing

/// The pre-start fast path on the server stores (`MilepostStore.stateHeadReader`): an up-to-date
/// `run` of the real binary answers exactly as the full path does — same status, stdout and stderr
/// — directly, through PgBouncer in transaction mode and on MariaDB. The full path is forced by
/// repeating `--to`, which the fast path leaves to the parser.
@Suite(.onItsOwnThread, .enabled(if: TestPooler.isConfigured, TestPooler.missing))
struct ServerFastPathTests {
    static let manifest = """
        app: fleet
        migrations:
          "1.0":
            - {name: exec, id: note, with: {command: ["true"]}}
        """

    /// `run --to 1.0` on `store`, twice more once it is up to date: by the fast path and by the full one.
    static func fastAndFull(store: String) throws -> (fast: (status: Int32, stdout: String, stderr: String), full: (status: Int32, stdout: String, stderr: String)) {
        let directory = try TestDirectory()
        try directory.write(manifest, to: "milepost.yaml")
        let first = try MilepostProcess.run(["run", "--store", store, "--to", "1.0"], in: directory.path)
        #expect(first.status == 0, "\(first.stderr)")
        func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let process = try MilepostProcess(["run", "--store", store, "--format", "json"] + arguments, in: directory.path)
            let (status, stderr) = try process.wait()
            return (status, try process.stdout(), stderr)
        }
        return (try run(["--to", "1.0"]), try run(["--to", "0.9", "--to=1.0"]))
    }

    @Test(arguments: [Route.direct, .pgbouncer])
    func anUpToDateRunAnswersLikeTheFullPath(route: Route) async throws {
        try Self.expectSameAnswers(store: route.url(TestServer.freshSchemaURL()))
    }

    @Test(.enabled(if: MariaDBTestServer.isConfigured, MariaDBTestServer.missing))
    func anUpToDateRunOnMariaDBAnswersLikeTheFullPath() async throws {
        try Self.expectSameAnswers(store: MariaDBTestServer.freshDatabaseURL())
    }

    static func expectSameAnswers(store: String) throws {
        let (fast, full) = try fastAndFull(store: store)
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(fast.stdout.contains("\"outcome\" : \"up-to-date\""), "\(fast.stdout)")
        #expect(fast.stdout == full.stdout)
        #expect(fast.stderr == full.stderr)
    }

    /// A no-op's connections (docs/performance.md): one, counted by the server for a database of
    /// its own (`pg_stat_database.sessions`, read from another database; client sessions only, not
    /// autovacuum's), by the fast path and by the full path alike.
    @Test func anUpToDateRunOpensOneSession() async throws {
        let url = try await TestServer.freshDatabase()
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        /// The sessions once the server's statistics have settled: a backend reports its session
        /// when it flushes, at the latest when it exits, which may come a moment after its client
        /// has gone.
        func sessions() async throws -> Int {
            var last = -1
            for _ in 0..<40 {
                let rows = try await TestServer.admin("SELECT sessions FROM pg_stat_database WHERE datname = $1", [database])
                let now = Int(rows.first?.first??.description ?? "") ?? -1
                if now == last { break }
                last = now
                try await Task.sleep(for: .milliseconds(500))
            }
            return last
        }
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        #expect(try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path).status == 0)
        for arguments in [["--to", "1.0"], ["--to", "0.9", "--to=1.0"]] {
            let before = try await sessions()
            let result = try MilepostProcess.run(["run", "--store", url] + arguments, in: directory.path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await sessions() - before == 1, "\(arguments)")
        }
    }
}
