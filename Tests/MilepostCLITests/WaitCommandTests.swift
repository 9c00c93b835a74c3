import Foundation
import Testing

/// `milepost wait` on the file store, with the real binary: a replica that only waits.
@Suite struct WaitCommandTests {
    @Test func exitsZeroOnceAnotherRunnerHasReachedTheVersion() throws {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        let waiter = try work.milepost.start(["wait", "--to", "2.1", "--timeout", "60s", "--interval", "50ms"])
        usleep(300_000)
        #expect(waiter.process.isRunning, "wait returned before anything was stored")
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        let waited = MilepostBinary.finish(waiter.process, waiter.stdout, waiter.stderr)
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stderr.hasPrefix("milepost: the store is at 2.1 (≥ 2.1) after "), "\(waited.stderr)")
        // Above the target is reached only down to the store's compatibility floor: this store has
        // none (its manifest has no contract step), so `run --to 2.1` refuses it, and `wait` too (issue 43).
        #expect(try work.milepost.run("run", "--to", "2.7").status == 0)
        #expect(try work.milepost.run("run", "--to", "2.1").status == 3)
        #expect(try work.milepost.run("wait", "--to", "2.1", "--timeout", "1s").status == 3)
    }

    @Test func exits75WhenTheTimeoutPassesFirst() throws {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        let result = try work.milepost.run("wait", "--to", "2.7", "--timeout", "300ms", "--format", "json")
        #expect(result.status == 75, "\(result.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(document?["outcome"] as? String == "timed-out")
        #expect(document?["version"] as? String == "2.1")
        #expect(document?["exit_code"] as? Int == 75)
    }

    @Test func exitsOneAtOnceWhenAStepFailed() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1:\n    - {name: exec, id: boom, with: {command: [sh, -c, 'exit 3']}}\n", to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1").status == 1)
        let result = try work.milepost.run("wait", "--to", "1", "--timeout", "60s")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("step 1/boom failed ("), "\(result.stderr)")
        #expect(result.stderr.contains("`milepost status`"), "\(result.stderr)")
    }

    @Test func exitsTwoAtOnceWhenAStepWasInterruptedAndNoRunHoldsTheLock() throws {
        let work = try WorkDirectory()
        let holder = try ExitCodeTests.startLockHolder(in: work)
        // While the run holds the lock, its step is running, not interrupted: wait goes on waiting.
        let whileRunning = try work.milepost.run("wait", "--to", "1", "--timeout", "300ms")
        #expect(whileRunning.status == 75, "\(whileRunning.stderr)")
        ExitCodeTests.stop(holder, in: work)
        let result = try work.milepost.run("wait", "--to", "1", "--timeout", "60s")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("step 1/exec was interrupted and no run holds the lock"), "\(result.stderr)")
    }
}
