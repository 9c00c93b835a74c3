import Foundation
import MilepostTestSupport
import Testing

/// Files a step reads as its definition (`sql`'s `file:`) are part of its fingerprint and of the
/// manifest's digest, as real processes on the real server see it (issue 25, item 5).
@Suite(.onItsOwnThread, .enabled(if: TestServer.isConfigured, TestServer.missing))
struct DefinitionFileTests {
    static let manifest = """
        app: shop
        migrations:
          "1.0":
            - {name: sql, id: view, repeat: on-change, with: {file: view.sql}}
            - {name: sql, id: backfill, with: {file: backfill.sql}}
        """

    /// A fresh store run to 1.0: the view `answer` (1) and the table `orders` made from their files.
    static func ranOnce() async throws -> (url: String, schema: String, directory: TestDirectory) {
        let url = TestServer.freshSchemaURL()
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        let schema = String(url.split(separator: "=").last ?? "")
        try directory.write("CREATE OR REPLACE VIEW \(schema).answer AS SELECT 1 AS n;\n", to: "view.sql")
        try directory.write("CREATE TABLE \(schema).orders (n int);\n", to: "backfill.sql")
        let first = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try await TestServer.admin("SELECT n FROM \(schema).answer") == [["1"]])
        return (url, schema, directory)
    }

    @Test func aRepeatableSQLStepRunsAgainWhenItsFileChangesAndOnlyThen() async throws {
        let (url, schema, directory) = try await Self.ranOnce()
        let same = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(same.stderr == "milepost: shop up to date at 1.0\n", "\(same.stderr)")

        try directory.write("CREATE OR REPLACE VIEW \(schema).answer AS SELECT 2 AS n;\n", to: "view.sql")
        let changed = try MilepostProcess.run(["run", "--store", url, "--to", "1.0"], in: directory.path)
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stderr.contains("1 step ran"), "\(changed.stderr)")
        #expect(try await TestServer.admin("SELECT n FROM \(schema).answer") == [["2"]])
    }

    @Test func statusReportsARewrittenFileOfACompletedStepAsDrift() async throws {
        let (url, schema, directory) = try await Self.ranOnce()
        #expect(try Self.drift(url, in: directory) == [])
        try directory.write("DELETE FROM \(schema).orders;\n", to: "backfill.sql")
        #expect(try Self.drift(url, in: directory) == ["1.0/backfill"])
    }

    /// The ids `status --format json` reports as drift.
    static func drift(_ url: String, in directory: TestDirectory) throws -> [String]? {
        let status = try MilepostProcess(["status", "--store", url, "--to", "1.0", "--format", "json"], in: directory.path)
        _ = try status.wait()
        let document = try JSONSerialization.jsonObject(with: Data(try status.stdout().utf8)) as? [String: Any]
        return (document?["drift"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
    }
}
