import Foundation
import Testing

/// The lock: a runner that cannot get it in time names the holder; liveness comes only from the
/// kernel's `flock`, never from the pid written in the lock file.
@Suite struct ReliabilityLockTests {
    static let manifest = """
        migrations:
          1:
            - name: exec
              with: {command: [sh, -c, 'echo $$ > step.pid; touch started; exec sleep 300']}
        """

    /// Runs `body` with the runner that holds the store's lock in `work` (its step sleeps), then kills it.
    static func withHeldLock(in work: WorkDirectory, _ body: (Process) throws -> Void) throws {
        try work.write(manifest, to: "milepost.yaml")
        let (holder, stdout, stderr) = try work.milepost.start(["run", "--to", "1"])
        defer {
            kill(holder.processIdentifier, SIGKILL)
            work.killOrphanedStep()
            _ = MilepostBinary.finish(holder, stdout, stderr, within: .seconds(30))
        }
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        try body(holder)
    }

    @Test func aTimeoutNamesTheHoldersPidHostSinceAndRun() throws {
        let work = try WorkDirectory()
        try Self.withHeldLock(in: work) { holder in
            let recorded = try ReliabilityFixture.object(try work.read(".milepost/lock"))
            let since = try #require(recorded["since"] as? String)
            let run = try #require(recorded["run"] as? String)
            #expect(recorded["pid"] as? Int == Int(holder.processIdentifier))
            #expect(recorded["host"] as? String == ReliabilityFixture.host)
            #expect(ReliabilityFixture.isTimestamp(since))

            let result = try work.milepost.run("run", "--to", "1", "--lock-timeout", "300ms")
            #expect(result.status == 75)
            #expect(result.stderr.contains(
                "could not take the lock of .milepost within 300ms: held by pid \(holder.processIdentifier) on \(ReliabilityFixture.host) since \(since) (run \(run))"),
                "\(result.stderr)")
        }
    }

    /// A lock file naming a live process (this test) whose lock is not held does not block anyone.
    @Test func aPidInTheLockFileIsNotALock() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1: [{name: exec, with: {command: [touch, ran]}}]\n", to: "milepost.yaml")
        let stale = #"{"host":"\#(ReliabilityFixture.host)","pid":\#(getpid()),"run":"r-stale","since":"2026-01-01T00:00:00.000Z"}"#
        try work.write(stale + "\n", to: ".milepost/lock")
        let result = try work.milepost.run("run", "--to", "1", "--lock-timeout", "0ms")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(work.exists("ran"))
        #expect(try work.read(".milepost/lock") == "", "release empties the holder's name")
    }

    /// `plan` and `run --dry-run` take no lock: while a live runner holds it and runs a step, that
    /// step is `running` (as `status` says), not interrupted; no `resolve` advice, the dry run exits 0.
    @Test func planAndDryRunCallALiveRunnersStepRunningNotInterrupted() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - name: exec
                  id: live
                  with: {command: [sh, -c, 'touch started; while [ ! -e go ]; do sleep 0.05; done']}
              2:
                - name: exec
                  id: next
                  with: {command: ["true"]}
            """, to: "milepost.yaml")
        let (holder, stdout, stderr) = try work.milepost.start(["run", "--to", "2"])
        var finished = false
        defer {
            if !finished {
                kill(holder.processIdentifier, SIGKILL)
                _ = MilepostBinary.finish(holder, stdout, stderr, within: .seconds(30))
            }
        }
        #expect(ReliabilityFixture.eventually { work.exists("started") })

        let plan = try work.milepost.run("plan", "--to", "2")
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("running      1/live  running now in pid \(holder.processIdentifier)"), "\(plan.stdout)")
        #expect(plan.stdout.contains("note: another runner is running 1/live now"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("interrupted") && !plan.stdout.contains("resolve"), "\(plan.stdout)")
        let planJSON = try ReliabilityFixture.object(try work.milepost.run("plan", "--to", "2", "--format", "json").stdout)
        let entries = try #require(planJSON["steps"] as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["running", "pending"])

        let dryRun = try work.milepost.run("run", "--to", "2", "--dry-run")
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stderr.contains("note: another runner is running 1/live now"), "\(dryRun.stderr)")
        #expect(!dryRun.stderr.contains("interrupted") && !dryRun.stderr.contains("resolve"), "\(dryRun.stderr)")
        let dryRunJSON = try ReliabilityFixture.object(
            try work.milepost.run("run", "--to", "2", "--dry-run", "--format", "json").stdout)
        #expect(dryRunJSON["outcome"] as? String == "dry-run")
        #expect(dryRunJSON["exit_code"] as? Int == 0)
        #expect(dryRunJSON["interrupted"] == nil)

        try work.write("", to: "go")
        let result = MilepostBinary.finish(holder, stdout, stderr, within: .seconds(60))
        finished = true
        #expect(result.status == 0, "\(result.stderr)")
    }
}
