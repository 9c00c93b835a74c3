import Foundation
import MilepostTestSupport
import Testing

/// `milepost test --store postgres://…`: the same crash test as on the file store, each trial in a
/// schema of its own, each trial's run killed with SIGKILL while it holds the lock; the next run
/// takes the lock over once the killed session's hold lapses.
@Suite(.onItsOwnThread, .enabled(if: TestServer.isConfigured, TestServer.missing))
struct CrashTestPostgresTests {
    @Test func reportsExactlyTheUnsafeStepAtItsCursorCommitsOnPostgreSQL() async throws {
        let directory = try TestDirectory()
        try CrashTestFixture.manifest.write(toFile: directory.path + "/milepost.yaml", atomically: true, encoding: .utf8)
        let url = TestServer.url ?? "postgres://unset"
        let process = try MilepostProcess(
            ["test", "--to", "2.0", "--from", "1.0", "--verify", CrashTestFixture.verify, "--store", url, "--format", "json"],
            in: directory.path)
        // Its trials take minutes on a loaded machine: waited for without holding a thread of the
        // test pool, which the lease tests beside it need.
        let (status, stdout, stderr) = try await process.ended()
        #expect(status == 1, "\(stderr)")
        let document = try CrashTestDocument(json: stdout)
        let path = try #require(document.paths.first)
        #expect(path.commitPoints.map(\.line) == CrashTestFixture.points)
        #expect(path.trials.allSatisfy { $0.reached && $0.killedBySignal == 9 })
        #expect(path.trials.filter { !$0.agrees }.map(\.line) == CrashTestFixture.unsafe)
        #expect(path.findings.filter { $0.severity == "error" }.map(\.step) == ["2.0/unsafe", "2.0/unsafe"])

        // Each trial (and the uninterrupted run) had a schema of its own, left on the server and named.
        let schemas = try #require(document.leftOnServer)
        #expect(schemas.count == 17)
        let found = try await TestServer.admin(
            "SELECT schema_name FROM information_schema.schemata WHERE schema_name = ANY($1::text[])",
            ["{" + schemas.joined(separator: ",") + "}"])
        #expect(Set(found.compactMap { $0.first ?? nil }) == Set(schemas))
        for schema in schemas { try await TestServer.admin("DROP SCHEMA \(schema) CASCADE") }
    }
}
