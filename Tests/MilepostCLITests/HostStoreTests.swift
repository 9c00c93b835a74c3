import Foundation
import Testing

/// `scope: host` steps recorded in each host's own store (`--host-store`, `MILEPOST_HOST_STORE`)
/// beside one fleet store, run as the built binary.
@Suite struct HostStoreTests {
    /// A fleet step and a host step at 1.0, a fleet step at 1.1; each appends its id and the host's
    /// tag (`HOST_TAG`) to `ran.txt`.
    static let manifest = """
        migrations:
          "1.0":
            - {name: exec, id: schema, with: {command: [sh, -c, 'echo "$MILEPOST_STEP $HOST_TAG" >> ran.txt']}}
            - {name: exec, id: local-config, scope: host, with: {command: [sh, -c, 'echo "$MILEPOST_STEP $HOST_TAG" >> ran.txt']}}
          "1.1":
            - {name: exec, id: data, with: {command: [sh, -c, 'echo "$MILEPOST_STEP $HOST_TAG" >> ran.txt']}}
        """

    static func host(_ work: WorkDirectory, _ tag: String, flag: Bool = true) -> (MilepostBinary, [String]) {
        var binary = work.milepost
        binary.environment["HOST_TAG"] = tag
        if !flag { binary.environment["MILEPOST_HOST_STORE"] = "host-\(tag)" }
        return (binary, flag ? ["--host-store", "host-\(tag)"] : [])
    }

    static func ran(_ work: WorkDirectory) throws -> [String] {
        try work.read("ran.txt").split(separator: "\n").map(String.init)
    }

    @Test func threeHostsRunTheHostStepOnceEachAndTheFleetStepsOnce() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let (a, aHost) = Self.host(work, "a")
        let first = try a.run(["run", "--to", "1.1"] + aHost)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try Self.ran(work) == ["1.0/schema a", "1.0/local-config a", "1.1/data a"])
        // The second host, through the environment variable: only its host step.
        let (b, _) = Self.host(work, "b", flag: false)
        #expect(try b.run("run", "--to", "1.1").status == 0)
        #expect(try Self.ran(work).dropFirst(3) == ["1.0/local-config b"])
        // Again on both: up to date, nothing runs (the fast path looks at both stores).
        let again = try a.run(["run", "--to", "1.1"] + aHost)
        #expect(again.stderr.contains("up to date at 1.1"), "\(again.stderr)")
        #expect(try b.run("run", "--to", "1.1").status == 0)
        #expect(try Self.ran(work).count == 4)
        // A host that joins later runs the host steps up to the fleet's version.
        let (c, cHost) = Self.host(work, "c")
        let plan = try JSONValue(parsing: try c.run(["plan", "--to", "1.1", "--format", "json"] + cHost).stdout)
        #expect(plan["pending"]?.array?.map(\.string) == ["1.0/local-config"])
        #expect(plan["steps"]?.array?.first { $0["id"]?.string == "1.0/local-config" }?["step_scope"]?.string == "host")
        #expect(try c.run(["run", "--to", "1.1"] + cHost).status == 0)
        #expect(try Self.ran(work).dropFirst(4) == ["1.0/local-config c"])
        for tag in ["a", "b", "c"] {
            let state = try ReliabilityFixture.object(try work.read("host-\(tag)/state.json"))
            #expect(state["version"] as? String == "1.1")
            #expect((state["completed"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1.0/local-config"])
        }
        let fleet = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect((fleet["completed"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1.0/schema", "1.1/data"])
    }

    /// The host store's lock is taken as the fleet store's is: a run that cannot take it in time
    /// exits 75 naming its holder and the host step it runs (two apps with stores of their own
    /// share this host's store).
    @Test func aHostStoreLockNotTakenInTimeNamesTheHoldersStep() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: slow, scope: host, with: {command: [sh, -c, 'touch started; while [ ! -e go ]; do sleep 0.05; done']}}
            """, to: "milepost.yaml")
        let (holder, stdout, stderr) = try work.milepost.start(["run", "--to", "1.0", "--store", "fleet-a", "--host-store", "host"])
        var finished = false
        defer {
            if !finished {
                kill(holder.processIdentifier, SIGKILL)
                _ = MilepostBinary.finish(holder, stdout, stderr, within: .seconds(30))
            }
        }
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        let waiting = try work.milepost.run("run", "--to", "1.0", "--store", "fleet-b", "--host-store", "host", "--lock-timeout", "300ms")
        #expect(waiting.status == 75, "\(waiting.stderr)")
        #expect(waiting.stderr.contains("could not take the lock of host within 300ms: held by pid \(holder.processIdentifier)"), "\(waiting.stderr)")
        #expect(waiting.stderr.contains("it is running the pre-start step 1.0/slow (attempt 1"), "\(waiting.stderr)")
        try work.write("", to: "go")
        let ended = MilepostBinary.finish(holder, stdout, stderr, within: .seconds(60))
        finished = true
        #expect(ended.status == 0, "\(ended.stderr)")
    }

    /// `status` answers from both stores whether or not it is given the manifest: a host step
    /// interrupted by a kill is interrupted without `--manifest` too (it said "a new store"), and a
    /// host step changed after it ran is drift, as a fleet step is.
    @Test func statusSeesTheHostStoresStepsWithOrWithoutTheManifest() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: slow, scope: host, with: {command: [sh, -c, 'echo $$ > step.pid; exec sleep 300']}}
            """, to: "milepost.yaml")
        let (holder, stdout, stderr) = try work.milepost.start(["run", "--to", "1.0", "--host-store", "host"])
        #expect(ReliabilityFixture.eventually { (try? work.read("step.pid"))?.hasSuffix("\n") == true })
        // The runner and its step are gone (the step first: it holds the runner's output open):
        // the step is interrupted, not running.
        kill(holder.processIdentifier, SIGKILL)
        work.killOrphanedStep()
        _ = MilepostBinary.finish(holder, stdout, stderr, within: .seconds(30))
        // No manifest: none given, and none at the default path.
        try FileManager.default.moveItem(atPath: work.path + "/milepost.yaml", toPath: work.path + "/away.yaml")
        let status = try work.milepost.run("status", "--host-store", "host")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("INTERRUPTED 1.0/slow was interrupted"), "\(status.stdout)")
        #expect(status.stdout.contains("`milepost resolve 1.0/slow --done --host-store host`"), "\(status.stdout)")

        // Another host runs the step (made quick), then the manifest changes it.
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: slow, scope: host, with: {command: [sh, -c, 'exit 0']}}
            """, to: "milepost.yaml")
        let ran = try work.milepost.run("run", "--to", "1.0", "--host-store", "host-b")
        #expect(ran.status == 0, "\(ran.stderr)")
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: slow, scope: host, with: {command: [sh, -c, 'exit 1']}}
            """, to: "milepost.yaml")
        let drift = try work.milepost.run("status", "--host-store", "host-b", "--to", "1.0")
        #expect(drift.stdout.contains("drift       1.0/slow changed in the manifest"), "\(drift.stdout)")
    }

    @Test func aManifestWithHostStepsAndNoHostStoreIsRefusedBeforeAnyStep() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let refused = try work.milepost.run("run", "--to", "1.1")
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("the manifest has steps that run on every host (scope: host: 1.0/local-config), and no host store was given to record them: pass --host-store DIR (or set MILEPOST_HOST_STORE)"), "\(refused.stderr)")
        #expect(!work.exists("ran.txt"))
        #expect(!work.exists(".milepost/state.json"))
        var empty = work.milepost
        empty.environment["MILEPOST_HOST_STORE"] = ""
        #expect(try empty.run("run", "--to", "1.1").status == 64)
    }

    /// The runner dies (SIGKILL) just as the host step starts, after the fleet step's checkpoint:
    /// the next run does not repeat the fleet step, and runs the host step again (it is idempotent).
    @Test func aCrashBetweenAFleetStepAndAHostStepResumesAtTheHostStep() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: schema, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
                - name: exec
                  id: local-config
                  scope: host
                  idempotent: true
                  with: {command: [sh, -c, 'if [ ! -e crashed ]; then touch crashed; kill -9 $PPID; sleep 5; fi; echo "$MILEPOST_STEP" >> ran.txt']}
            """, to: "milepost.yaml")
        let crashed = try work.milepost.run("run", "--to", "1.0", "--host-store", "host")
        #expect(crashed.status != 0)
        #expect(try Self.ran(work) == ["1.0/schema"])
        let host = try ReliabilityFixture.object(try work.read("host/state.json"))
        #expect((host["in_progress"] as? [String: Any])?["id"] as? String == "1.0/local-config")
        let fleet = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect((fleet["completed"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1.0/schema"])

        let next = try work.milepost.run("run", "--to", "1.0", "--host-store", "host")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.ran(work) == ["1.0/schema", "1.0/local-config"])
        let journal = try ReliabilityFixture.journal(in: work, store: "host")
        #expect(journal.filter { $0["event"] as? String == "step-started" }.count == 2)
        #expect(journal.last?["outcome"] as? String == "succeeded")
    }
}
