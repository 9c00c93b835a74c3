import Foundation
import MilepostTestSupport
import Testing

/// `kill -9` of a runner in the middle of a step: nothing to clean up, nothing run twice
/// unless the step says it is safe.
@Suite struct ReliabilityKillTests {
    /// `2.1/slow` appends to `slow.txt` and, while the file `hang` exists, then hangs (its pid in
    /// `step.pid`); `2.2/later` appends to `later.txt`.
    static func manifest(idempotent: Bool) -> String {
        """
        migrations:
          2.1:
            - name: exec
              id: slow
              idempotent: \(idempotent)
              with: {command: [sh, -c, 'echo x >> slow.txt; if [ -e hang ]; then echo $$ > step.pid; touch started; exec sleep 300; fi']}
          2.2:
            - name: exec
              id: later
              with: {command: [sh, -c, 'echo x >> later.txt']}
        """
    }

    /// A runner killed with SIGKILL inside `2.1/slow`. What is left of its step's process group (a
    /// grandchild outlives the leader's death) lives on until `finish()`, which also reaps the
    /// runner: Foundation's `Process` sees the runner's end only once every inheritor of its
    /// descriptors, the orphan included, is gone.
    struct KilledRunner {
        let work: WorkDirectory
        let process: Process
        let output: (stdout: ExecClosingPipe, stderr: ExecClosingPipe)
        var pid: Int32 { process.processIdentifier }

        func finish() {
            work.killOrphanedStep()
            _ = MilepostBinary.finish(process, output.stdout, output.stderr, within: .seconds(30))
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        }
    }

    /// Starts a run to 2.2 and kills it with SIGKILL once `2.1/slow` is running.
    static func killRunnerMidStep(in work: WorkDirectory, idempotent: Bool, manifest: String? = nil) throws -> KilledRunner {
        try work.write(manifest ?? Self.manifest(idempotent: idempotent), to: "milepost.yaml")
        try work.write("", to: "hang")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "2.2"])
        let killed = KilledRunner(work: work, process: process, output: (stdout, stderr))
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        kill(killed.pid, SIGKILL)
        #expect(ReliabilityFixture.eventually { ReliabilityFixture.isDead(killed.pid) })
        // The step's leader dies with its runner (PR_SET_PDEATHSIG); what it left in its group may not.
        let leader = try ReliabilityFixture.pid(in: work, "step.pid")
        #expect(ReliabilityFixture.eventually { ReliabilityFixture.isDead(leader) }, "the step outlived its runner")
        try FileManager.default.removeItem(atPath: work.path + "/hang")
        return killed
    }

    @Test func theStepDiesWithItsRunnerAndTheNextRunNamesItAndDoesNotRunIt() throws {
        let work = try WorkDirectory()
        let runner = try Self.killRunnerMidStep(in: work, idempotent: false)
        defer { runner.finish() }
        let killed = runner.pid
        // Zero lock timeout: the lock must already be free.
        let text = try work.milepost.run("run", "--to", "2.2", "--lock-timeout", "0ms")
        #expect(text.status == 2, "\(text.stderr)")
        #expect(text.stderr.contains("step 2.1/slow was interrupted (pid \(killed) on \(ReliabilityFixture.host) since 20"), "\(text.stderr)")
        #expect(text.stderr.contains("milepost resolve 2.1/slow --done"))

        let json = try work.milepost.run("run", "--to", "2.2", "--lock-timeout", "0ms", "--format", "json")
        #expect(json.status == 2)
        let interrupted = try #require(try ReliabilityFixture.object(json.stdout)["interrupted"] as? [String: Any])
        #expect(interrupted["id"] as? String == "2.1/slow")
        #expect(interrupted["pid"] as? Int == Int(killed))
        #expect(interrupted["host"] as? String == ReliabilityFixture.host)
        let since = try #require(interrupted["since"] as? String)
        #expect(ReliabilityFixture.isTimestamp(since), "\(since)")

        #expect(try work.read("slow.txt") == "x\n", "the interrupted step ran again")
        #expect(!work.exists("later.txt"))
    }

    @Test(arguments: ["done", "retry"])
    func resolveClearsTheStepIsJournaledAndTheRunGoesOn(resolution: String) throws {
        let work = try WorkDirectory()
        let runner = try Self.killRunnerMidStep(in: work, idempotent: false)
        defer { runner.finish() }
        let resolved = try work.milepost.run("resolve", "2.1/slow", "--\(resolution)")
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let record = try #require(try ReliabilityFixture.journal(in: work).last)
        #expect(record["event"] as? String == "resolved")
        #expect(record["step"] as? String == "2.1/slow")
        #expect(record["outcome"] as? String == resolution)

        let next = try work.milepost.run("run", "--to", "2.2")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try work.read("slow.txt") == (resolution == "retry" ? "x\nx\n" : "x\n"))
        #expect(try work.read("later.txt") == "x\n")
    }

    @Test func anIdempotentStepRunsAgainAndTheRunGoesOn() throws {
        let work = try WorkDirectory()
        let runner = try Self.killRunnerMidStep(in: work, idempotent: true)
        defer { runner.finish() }
        let next = try work.milepost.run("run", "--to", "2.2", "--lock-timeout", "0ms")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try work.read("slow.txt") == "x\nx\n")
        #expect(try work.read("later.txt") == "x\n")
        let attempts = try ReliabilityFixture.journal(in: work)
            .filter { $0["event"] as? String == "step-started" && $0["step"] as? String == "2.1/slow" }
        #expect(attempts.count == 2)
    }

    /// Like `manifest`, but `2.1/slow` is an `OrphaningScript` (appending `x` to `slow.txt`): while
    /// `hang` exists it leaves a grandchild in its process group that outlives the leader, and a
    /// copy that starts beside it appends to `overlap.txt`.
    static func orphaningManifest(idempotent: Bool) -> String {
        """
        migrations:
          2.1:
            - name: exec
              id: slow
              idempotent: \(idempotent)
              with: {command: [sh, -c, \(OrphaningScript.quoted(record: "x", log: "slow.txt"))]}
          2.2:
            - name: exec
              id: later
              with: {command: [sh, -c, 'echo x >> later.txt']}
        """
    }

    /// The step's leader dies with its runner, its grandchild does not: while that grandchild runs,
    /// `run`, `resolve` and `status` see the step as running, not interrupted; `run` and `resolve`
    /// refuse after `--lock-timeout` naming its pids (exit 75), or wait for it, and never start a
    /// second copy.
    @Test(arguments: [true, false])
    func aStepWhoseProcessesOutliveItsRunnerIsWaitedForNeverRunTwice(idempotent: Bool) throws {
        let work = try WorkDirectory()
        let runner = try Self.killRunnerMidStep(in: work, idempotent: idempotent, manifest: Self.orphaningManifest(idempotent: idempotent))
        defer {
            if let group = try? ReliabilityFixture.pid(in: work, "step.pid") { kill(-group, SIGKILL) }
            runner.finish()
        }
        let group = try ReliabilityFixture.pid(in: work, "step.pid")
        let orphan = try ReliabilityFixture.pid(in: work, "orphan.pid")
        #expect(!ReliabilityFixture.isDead(orphan))

        let refused = try work.milepost.run("run", "--to", "2.2", "--lock-timeout", "0ms")
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("step 2.1/slow is still running"), "\(refused.stderr)")
        #expect(refused.stderr.contains("process group \(group)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("\(orphan)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("kill -TERM -- -\(group)"), "\(refused.stderr)")

        let resolve = try work.milepost.run("resolve", "2.1/slow", "--retry", "--lock-timeout", "0ms")
        #expect(resolve.status == 75, "\(resolve.stderr)")
        #expect(resolve.stderr.contains("step 2.1/slow is still running"), "\(resolve.stderr)")

        let status = try work.milepost.run("status", "--format", "json")
        let document = try ReliabilityFixture.object(status.stdout)
        #expect(document["verdict"] as? String == "running", "\(status.stdout)")
        let running = try #require(document["running"] as? [String: Any])
        let recorded = try #require(running["process_group"] as? [String: Any])
        #expect(recorded["id"] as? Int == Int(group))
        #expect(recorded["host"] as? String == ReliabilityFixture.host)
        #expect(document["interrupted"] == nil)
        let text = try work.milepost.run("status")
        #expect(text.stdout.contains("RUNNING 2.1/slow is still running although its run"), "\(text.stdout)")
        #expect(text.stdout.contains("still running; their runner, pid \(runner.pid), is gone"), "\(text.stdout)")
        #expect(try work.milepost.run("status", "--check", "--to", "2.2").status == 4)
        #expect(try work.read("slow.txt") == "x\n")

        // A run that may wait: it waits (and says so) until the grandchild ends, then goes on.
        var waiting = work.milepost
        waiting.launcher = ["/bin/sh", "-c", #"exec "$0" "$@" 2> waiting.err"#]
        let (process, stdout, stderr) = try waiting.start(["run", "--to", "2.2", "--lock-timeout", "60s"])
        #expect(ReliabilityFixture.eventually {
            (try? work.read("waiting.err"))?.contains("waiting for a step whose runner is gone") == true
        })
        kill(orphan, SIGUSR1)
        let next = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        let log = (try? work.read("waiting.err")) ?? ""
        #expect(!work.exists("overlap.txt"), "a second copy started while the first still ran")
        if idempotent {
            #expect(next.status == 0, "\(log)")
            #expect(try work.read("slow.txt") == "x\nx\n")
            #expect(try work.read("later.txt") == "x\n")
        } else {
            #expect(next.status == 2, "\(log)")
            #expect(log.contains("step 2.1/slow was interrupted"), "\(log)")
            #expect(try work.read("slow.txt") == "x\n")
        }
    }

    /// The machine is told by its boot and pid namespace, not by its host name, which can change
    /// while a step runs (`hostname`; here a new UTS namespace): a run under another name still
    /// sees the killed runner's surviving group and waits for it, and an idempotent step does not
    /// start beside it.
    @Test func aSurvivingStepIsWaitedForUnderARenamedHost() throws {
        let work = try WorkDirectory()
        let runner = try Self.killRunnerMidStep(in: work, idempotent: true, manifest: Self.orphaningManifest(idempotent: true))
        defer {
            if let group = try? ReliabilityFixture.pid(in: work, "step.pid") { kill(-group, SIGKILL) }
            runner.finish()
        }
        var renamed = work.milepost
        renamed.launcher = ["/usr/bin/unshare", "--user", "--map-root-user", "--uts", "sh", "-c", #"hostname renamed-host && exec "$0" "$@""#]
        let refused = try renamed.run("run", "--to", "2.2", "--lock-timeout", "0ms")
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("step 2.1/slow is still running"), "\(refused.stderr)")
        #expect(!work.exists("overlap.txt"), "a second copy started while the first still ran")
        #expect(try work.read("slow.txt") == "x\n")
    }

    /// The `exec` step's process group is durable in its in-progress mark before its program runs:
    /// a runner killed at any instant of the step leaves a mark that names the group.
    @Test func theProcessGroupIsRecordedBeforeTheProgramRuns() throws {
        let work = try WorkDirectory()
        try work.write(#"""
            migrations:
              "1.0":
                - {name: exec, id: look, with: {command: [sh, -c, 'grep -q "\"process_group\"" .milepost/state.json && grep -q "$$" .milepost/state.json && touch recorded']}}
            """#, to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "1.0")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(work.exists("recorded"), "the step ran before its process group was in the state")
    }
}
