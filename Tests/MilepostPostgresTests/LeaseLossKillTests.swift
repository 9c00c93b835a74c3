import Foundation
import MilepostTestSupport
import Testing

/// A run that loses its lease stops its step before another runner can take the lock, even when
/// the step ignores SIGTERM and `--termination-grace` is long: its process group is killed a third
/// of the lease after the loss (docs/postgres.md, "The lease").
@Suite(.onItsOwnThread, .enabled(if: TestPooler.isConfigured, TestPooler.missing))
struct LeaseLossKillTests {
    @Test(arguments: Route.leased)
    func aStepIgnoringSIGTERMIsKilledAThirdOfTheLeaseAfterTheLossNotAfterTheGrace(route: Route) async throws {
        let direct = TestServer.freshSchemaURL()
        let url = route.url(direct, lease: "3s")
        let schema = "\"" + (direct.components(separatedBy: "milepost_schema=").last ?? "") + "\""
        let directory = try TestDirectory()
        try directory.write("""
            migrations:
              "1.0":
                - {name: exec, id: stubborn, with: {command: [sh, -c, 'trap "" TERM; echo $$ > step.pid; while :; do sleep 0.2; done']}}
            """, to: "milepost.yaml")
        let holder = try MilepostProcess(
            ["run", "--store", url, "--to", "1.0", "--termination-grace", "10m"], in: directory.path)
        defer { kill(holder.pid, SIGKILL) }
        let stepPID = try #require(Int32(try await directory.waitFor("step.pid").dropLast()))
        defer { kill(-stepPID, SIGKILL) }

        // Another runner takes the lock over, as one does once a lease lapsed: the holder's next
        // renewal finds the row taken.
        try await TestServer.admin("""
            UPDATE \(schema).lease SET run = 'thief0000000', pid = 1, host = 'elsewhere', expires_at = now() + interval '1 hour';
            UPDATE \(schema).state SET generation = generation + 1
            """, url: direct)

        let deadline = ContinuousClock.now + .seconds(60)
        while holder.process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!holder.process.isRunning, "the holder still waits for its step after the lease was lost")
        kill(holder.pid, SIGKILL)
        let result = try holder.wait()
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("refused by the fence: run thief0000000 took the lock"), "\(result.stderr)")
        // Killed before the run exits; reaped by whoever inherited it a moment later.
        let gone = ContinuousClock.now + .seconds(10)
        while kill(-stepPID, 0) == 0, ContinuousClock.now < gone { try await Task.sleep(for: .milliseconds(50)) }
        #expect(kill(-stepPID, 0) == -1 && errno == ESRCH, "the step's process group outlived the run")
    }
}
