import Foundation
import MilepostTestSupport
import Testing

/// An approval gate on a contract step, on PostgreSQL, with several runners at once: every
/// runner stops before the step until one approval is journaled, and then one of them runs it.
@Suite(.onItsOwnThread, .enabled(if: TestServer.isConfigured, TestServer.missing))
struct ApprovalFleetTests {
    @Test func severalRunnersStopAtTheGateAndOneApprovalLetsExactlyOneRunTheStep() async throws {
        let url = try await TestServer.freshDatabase()
        let directory = try TestDirectory()
        try directory.write("""
            app: fleet
            migrations:
              "1.0":
                - {name: exec, id: install, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
              "2.0":
                - {name: exec, id: expand, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
                - {name: exec, id: drop-old, phase: contract, requires: approval, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> steps.log']}}
            """, to: "milepost.yaml")
        for version in ["1.0", "2.0"] {
            let release = try MilepostProcess.run(["run", "--store", url, "--to", version], in: directory.path)
            #expect(release.status == 0, "\(release.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/install\n2.0/expand\n")

        let contract = ["run", "--store", url, "--to", "2.0", "--phase", "contract", "--lock-timeout", "2m"]
        let waiting = try (0..<5).map { _ in try MilepostProcess(contract, in: directory.path) }.map { try $0.wait() }
        for result in waiting {
            #expect(result.status == 8, "\(result.stderr)")
            #expect(result.stderr.contains("2.0/drop-old requires approval"), "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/install\n2.0/expand\n")

        let approve = try MilepostProcess.run(["approve", "2.0/drop-old", "--store", url, "--by", "alice"], in: directory.path)
        #expect(approve.status == 0, "\(approve.stderr)")
        let approved = try (0..<5).map { _ in try MilepostProcess(contract, in: directory.path) }.map { try $0.wait() }
        for result in approved {
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(directory.read("steps.log") == "1.0/install\n2.0/expand\n2.0/drop-old\n")
        #expect(approved.filter { $0.stderr.contains("1 step ran") }.count == 1)
        #expect(try await TestServer.admin(
            "SELECT count(*) FROM milepost.journal WHERE event = 'approved' AND record->>'by' = 'alice'", url: url) == [["1"]])
        #expect(try await TestServer.admin(
            "SELECT count(*) FROM milepost.journal WHERE event = 'step-succeeded' AND step = '2.0/drop-old'", url: url) == [["1"]])
    }
}
