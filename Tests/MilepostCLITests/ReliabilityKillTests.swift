import Foundation
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

    /// A runner killed with SIGKILL inside `2.1/slow`. Its step process lives on (it leads its own
    /// process group) until `finish()`, which also reaps the runner: Foundation's `Process` sees
    /// the runner's end only once every inheritor of its descriptors, the orphan included, is gone.
    struct KilledRunner {
        let work: WorkDirectory
        let process: Process
        let output: (stdout: Pipe, stderr: Pipe)
        var pid: Int32 { process.processIdentifier }

        func finish() {
            work.killOrphanedStep()
            _ = MilepostBinary.finish(process, output.stdout, output.stderr, within: .seconds(30))
            #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        }
    }

    /// Starts a run to 2.2 and kills it with SIGKILL once `2.1/slow` is running.
    static func killRunnerMidStep(in work: WorkDirectory, idempotent: Bool) throws -> KilledRunner {
        try work.write(manifest(idempotent: idempotent), to: "milepost.yaml")
        try work.write("", to: "hang")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "2.2"])
        let killed = KilledRunner(work: work, process: process, output: (stdout, stderr))
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        kill(killed.pid, SIGKILL)
        #expect(ReliabilityFixture.eventually { ReliabilityFixture.isDead(killed.pid) })
        try FileManager.default.removeItem(atPath: work.path + "/hang")
        return killed
    }

    @Test func theNextRunDoesNotWaitNamesTheStepAndDoesNotRunIt() throws {
        let work = try WorkDirectory()
        let runner = try Self.killRunnerMidStep(in: work, idempotent: false)
        defer { runner.finish() }
        let killed = runner.pid
        #expect(!ReliabilityFixture.isDead(try ReliabilityFixture.pid(in: work, "step.pid")), "the orphaned step should still run")

        // Zero lock timeout: the lock must already be free, though the killed step's process lives on.
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
}
