import Foundation
import MilepostSystem
import MilepostTestSupport
import Testing

/// A `scope: host` step is guarded as a fleet step is, whatever the fleet store: a run waits for
/// its live process group and then stops at it once interrupted, `status`, `plan` and a dry run say
/// so, their advice names the host store, and `resolve` reaches its mark there.
@Suite(.onItsOwnThread) struct HostStepGuardTests {
    /// `1.1/local` (a host step, not idempotent) is an `OrphaningScript` recording `local` in `ran.txt`.
    static let manifest = """
        migrations:
          "1.0":
            - {name: exec, id: schema, with: {command: [sh, -c, 'echo schema >> ran.txt']}}
          "1.1":
            - {name: exec, id: local, scope: host, with: {command: [sh, -c, \(OrphaningScript.quoted(record: "local", log: "ran.txt"))]}}
          "1.2":
            - {name: exec, id: later, with: {command: [sh, -c, 'echo later >> ran.txt']}}
        """

    /// Runs `milepost arguments…` in `directory` to its end: its status, stdout and stderr.
    static func milepost(_ arguments: [String], in directory: TestDirectory) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await MilepostProcess.outcome(arguments, in: directory.path)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test(arguments: StoreKind.available)
    func aHostStepWhoseRunnerWasKilledIsGuardedAsAFleetStepIs(kind: StoreKind) async throws {
        let directory = try TestDirectory()
        try directory.write(Self.manifest, to: "milepost.yaml")
        try directory.write("", to: "hang")
        let stores = ["--store", kind.freshSpec(in: directory.path), "--host-store", "host"]
        let killed = try MilepostProcess(["run", "--to", "1.2"] + stores, in: directory.path)
        #expect(try await eventually { directory.read("started") != nil })
        kill(killed.pid, SIGKILL)
        let group = try #require(Int32((directory.read("step.pid") ?? "").dropLast()))
        let orphan = try #require(Int32((directory.read("orphan.pid") ?? "").dropLast()))
        defer {
            kill(-group, SIGKILL)
            _ = try? killed.wait()
        }
        // The leader dies with its runner; the grandchild it left in its group lives on.
        #expect(try await eventually { !ProcessGroupScan.members(of: group).contains(group) })
        #expect(ProcessGroupScan.members(of: group).contains(orphan))
        try FileManager.default.removeItem(atPath: directory.path + "/hang")

        // While it lives: a run and a resolve wait for it (after the killed runner's lock, on a
        // lease store), then refuse; status says it runs.
        let refused = try await Self.milepost(["run", "--to", "1.2", "--lock-timeout", "5s"] + stores, in: directory)
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("step 1.1/local is still running"), "\(refused.stderr)")
        #expect(refused.stderr.contains("process group \(group)"), "\(refused.stderr)")
        let resolving = try await Self.milepost(["resolve", "1.1/local", "--retry", "--lock-timeout", "5s"] + stores, in: directory)
        #expect(resolving.status == 75, "\(resolving.stderr)")
        #expect(resolving.stderr.contains("step 1.1/local is still running"), "\(resolving.stderr)")
        let running = try Self.json(try await Self.milepost(["status", "--to", "1.2", "--format", "json"] + stores, in: directory).stdout)
        #expect(running["verdict"] as? String == "running", "\(running)")
        #expect((running["running"] as? [String: Any])?["id"] as? String == "1.1/local", "\(running)")

        // Once it ends: the step is interrupted, and every command stops there and names the host store.
        kill(orphan, SIGUSR1)
        #expect(try await eventually { ProcessGroupScan.members(of: group).isEmpty })
        let dryRun = try await Self.milepost(["run", "--to", "1.2", "--dry-run"] + stores, in: directory)
        #expect(dryRun.status == 2, "\(dryRun.stdout)\(dryRun.stderr)")
        let plan = try await Self.milepost(["plan", "--to", "1.2"] + stores, in: directory)
        #expect(plan.stdout.contains("resolve 1.1/local --done --store "), "\(plan.stdout)")
        #expect(plan.stdout.contains("--host-store host"), "\(plan.stdout)")
        let blocked = try await Self.milepost(["run", "--to", "1.2"] + stores, in: directory)
        #expect(blocked.status == 2, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("step 1.1/local was interrupted"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("--host-store host"), "\(blocked.stderr)")
        let interrupted = try Self.json(try await Self.milepost(["status", "--to", "1.2", "--format", "json"] + stores, in: directory).stdout)
        #expect(interrupted["verdict"] as? String == "interrupted", "\(interrupted)")
        #expect((interrupted["interrupted"] as? [String: Any])?["id"] as? String == "1.1/local", "\(interrupted)")

        let resolved = try await Self.milepost(["resolve", "1.1/local", "--done"] + stores, in: directory)
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let host = try Self.json(try #require(directory.read("host/state.json")))
        #expect((host["completed"] as? [[String: Any]])?.contains { $0["id"] as? String == "1.1/local" } == true, "\(host)")
        let rest = try await Self.milepost(["run", "--to", "1.2"] + stores, in: directory)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(directory.read("ran.txt") == "schema\nlocal\nlater\n")
        #expect(directory.read("overlap.txt") == nil, "a second copy started while the first still ran")
    }
}
