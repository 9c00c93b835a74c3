import Foundation
import MilepostTestSupport
import Testing

/// SIGTERM/SIGINT in the middle of an `exec` step: the step's whole process group is stopped,
/// no other step starts, the interruption is journaled, the lock released, exit 128 + signal.
@Suite struct ReliabilitySignalTests {
    /// `1/work` runs `body` (with its pid in `step.pid`, then the file `started`); `2/next` must never run.
    static func manifest(_ body: String) -> String {
        """
        migrations:
          1:
            - name: exec
              id: work
              with: {command: [sh, -c, 'echo $$ > step.pid; echo $PPID > parent.pid; \(body)']}
          2:
            - name: exec
              id: next
              with: {command: [touch, next-ran]}
        """
    }

    /// A grandchild that does not hold the step's stderr, so only a signal to the group can end it.
    static let withGrandchild = manifest("sleep 300 </dev/null >/dev/null 2>&1 & echo $! > grandchild.pid; touch started; wait")

    /// Every process of the group ignores SIGTERM (an ignored signal stays ignored across exec).
    static let ignoringTERM = manifest("trap \"\" TERM; touch started; while :; do sleep 0.1; done")

    /// SIGHUP (a closed terminal) and SIGQUIT stop a run as SIGTERM does.
    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129)), (SIGQUIT, Int32(131))])
    func theSignalReachesTheStepsGrandchild(signal: Int32, expected: Int32) throws {
        let work = try WorkDirectory()
        try work.write(Self.withGrandchild, to: "milepost.yaml")
        let (result, died) = try Self.interrupt(work, with: signal, arguments: ["--termination-grace", "60s"], ending: "grandchild.pid")
        #expect(result.status == expected, "\(result.stderr)")
        #expect(died, "the grandchild outlived the signal")
        try Self.expectInterruptedAndUnlocked(work, signal: signal)
    }

    @Test func aStepThatIgnoresSIGTERMIsKilledAfterTheGrace() throws {
        let work = try WorkDirectory()
        try work.write(Self.ignoringTERM, to: "milepost.yaml")
        let (result, died) = try Self.interrupt(work, with: SIGTERM, arguments: ["--termination-grace", "1s"], ending: "step.pid")
        #expect(result.status == 143, "\(result.stderr)")
        #expect(died, "the step outlived the grace")
        try Self.expectInterruptedAndUnlocked(work, signal: SIGTERM)
    }

    /// A parent that blocked SIGTERM before starting milepost does not make it deaf to it.
    @Test func SIGTERMStopsTheRunAlthoughTheParentBlockedIt() throws {
        let work = try WorkDirectory()
        try work.write(Self.withGrandchild, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/usr/bin/env", "--block-signal=TERM,CHLD", "--ignore-signal=CHLD"]
        let (result, died) = try Self.interrupt(
            work, with: SIGTERM, arguments: ["--termination-grace", "60s"], ending: "grandchild.pid", milepost: milepost)
        #expect(result.status == 143, "\(result.stderr)")
        #expect(died, "the grandchild outlived the signal")
        try Self.expectInterruptedAndUnlocked(work, signal: SIGTERM)
    }

    /// Under `nohup` (SIGHUP ignored) a hangup does not stop the run: the step runs to its end.
    @Test func underNohupSIGHUPLeavesTheRunAlone() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest("touch started; while [ ! -e go ]; do sleep 0.01; done"), to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/usr/bin/env", "--ignore-signal=HUP"]
        let (process, stdout, stderr) = try milepost.start(["run", "--to", "2"])
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        kill(process.processIdentifier, SIGHUP)
        usleep(200_000)  // Time for a trapped SIGHUP to cancel the step; then the step may end.
        try work.write("", to: "go")
        let result = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(work.exists("next-ran"))
    }

    /// SIGTERM while a failed step waits for its retry: no further attempt starts, the step stays
    /// failed (not in progress), the run is journaled as interrupted and exits 143; the next run
    /// runs the step again instead of stopping at an interruption.
    @Test func aSignalDuringTheRetryBackOffEndsTheRunWithTheStepFailed() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - {name: exec, id: flaky, retries: 3, with: {command: [sh, -c, 'echo x >> attempts; test -e fixed']}}
            """, to: "milepost.yaml")
        // The first attempt fails and is journaled; the runner then sleeps 1 s before the second.
        let result = try ReliabilityFixture.terminate(work, run: ["--to", "1"], after: "step-failed")
        #expect(result.status == 143, "\(result.stderr)")
        #expect(try work.read("attempts") == "x\n", "an attempt started after the signal")
        let journal = try ReliabilityFixture.journal(in: work)
        #expect(journal.map { $0["event"] as? String } == ["run-started", "step-started", "step-failed", "run-finished"])
        #expect(journal.last?["outcome"] as? String == "interrupted")
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect(state["in_progress"] == nil, "\(state)")
        #expect((state["failed"] as? [String: Any])?["id"] as? String == "1/flaky", "\(state)")
        try work.write("", to: "fixed")
        let next = try work.milepost.run("run", "--to", "1")
        #expect(next.status == 0, "\(next.stderr)")
    }

    /// SIGTERM once the step's process has exited, while a process it left behind still holds its
    /// stderr (read for up to a second more): the step has its outcome already, so it is journaled
    /// with it (succeeded for 0, failed for 3), never interrupted, and the next run does not stop at
    /// it (it used to exit 2).
    @Test(arguments: [(0, "step-succeeded", Int32(0)), (3, "step-failed", Int32(1))])
    func aSignalAfterTheStepExitedLeavesItsOutcome(status: Int, event: String, nextStatus: Int32) throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - {name: exec, id: quick, with: {command: [sh, -c, 'sleep 30 >&2 & echo $$ > step.pid; exit \(status)']}}
            """, to: "milepost.yaml")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1"])
        let written = { Int32((try? work.read("step.pid"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") }
        #expect(ReliabilityFixture.eventually { written() != nil })
        let step = try #require(written())
        // Dead means a zombie here: unreaped until its stderr ends or the second has passed.
        #expect(ReliabilityFixture.eventually { ReliabilityFixture.isDead(step) })
        kill(process.processIdentifier, SIGTERM)
        let result = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        let events = try ReliabilityFixture.journal(in: work).compactMap { $0["event"] as? String }
        #expect(events.contains(event), "\(events) \(result.stderr)")
        #expect(!events.contains("step-interrupted"), "\(events) \(result.stderr)")
        // A failed step runs again (and fails again): 1, not the 2 of an interrupted one.
        let next = try work.milepost.run("run", "--to", "1", "--lock-timeout", "0ms")
        #expect(next.status == nextStatus, "\(next.stderr)")
    }

    /// As PID 1 of a new PID namespace (a container's entry point), where the kernel drops
    /// signals a process has no handler for.
    @Test(.enabled(if: getuid() == 0, "unshare --pid needs root"))
    func worksAsPIDOne() throws {
        let work = try WorkDirectory()
        try work.write(Self.withGrandchild, to: "milepost.yaml")
        let unshare = Process()
        unshare.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        unshare.arguments = ["--fork", "--pid", "--mount-proc", MilepostBinary.path, "run", "--to", "2", "--termination-grace", "60s"]
        unshare.currentDirectoryURL = URL(fileURLWithPath: work.path)
        unshare.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
        let (stdout, stderr) = (try ExecClosingPipe(), try ExecClosingPipe())
        unshare.standardInput = FileHandle.nullDevice
        try unshare.run(stdout: stdout, stderr: stderr)
        defer { if unshare.isRunning { kill(unshare.processIdentifier, SIGKILL) } }
        guard ReliabilityFixture.eventually({ work.exists("started") }) else {
            let result = MilepostBinary.finish(unshare, stdout, stderr, within: .seconds(10))
            Issue.record("the step never started (unshare refused?): \(result.stderr)")
            return
        }
        #expect(try work.read("parent.pid") == "1\n", "milepost is not PID 1 in its namespace")
        // Milepost's pid outside the namespace: the only child of unshare.
        let children = try String(contentsOfFile: "/proc/\(unshare.processIdentifier)/task/\(unshare.processIdentifier)/children", encoding: .utf8)
        let milepost = try #require(Int32(children.trimmingCharacters(in: .whitespaces)))
        kill(milepost, SIGTERM)
        let result = MilepostBinary.finish(unshare, stdout, stderr, within: .seconds(60))
        #expect(result.status == 143, "\(result.stderr)")
        try Self.expectInterruptedAndUnlocked(work, signal: SIGTERM)
    }

    /// Starts a run to 2, sends `signal` to milepost once step 1 is running, and waits for it.
    /// `died` tells whether the process whose pid the step wrote to `pidFile` ended (it is killed
    /// otherwise, before milepost is reaped: Foundation's `Process` waits for every inheritor of
    /// milepost's descriptors).
    static func interrupt(
        _ work: WorkDirectory, with signal: Int32, arguments: [String], ending pidFile: String,
        milepost: MilepostBinary? = nil
    ) throws -> (result: MilepostBinary.Result, died: Bool) {
        let (process, stdout, stderr) = try (milepost ?? work.milepost).start(["run", "--to", "2"] + arguments)
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        #expect(try work.read("parent.pid") == "\(process.processIdentifier)\n")
        kill(process.processIdentifier, signal)
        let pid = try ReliabilityFixture.pid(in: work, pidFile)
        let died = ReliabilityFixture.eventually { ReliabilityFixture.isDead(pid) }
        if !died { kill(pid, SIGKILL) }
        return (MilepostBinary.finish(process, stdout, stderr, within: .seconds(60)), died)
    }

    /// The journal ends with the step interrupted and the run finished as interrupted, the next
    /// step never ran, and the lock is free: the next run stops at once at the interrupted step.
    static func expectInterruptedAndUnlocked(_ work: WorkDirectory, signal: Int32) throws {
        #expect(!work.exists("next-ran"))
        let journal = try ReliabilityFixture.journal(in: work)
        #expect(journal.suffix(2).map { $0["event"] as? String } == ["step-interrupted", "run-finished"])
        #expect(journal.suffix(2).first?["step"] as? String == "1/work")
        #expect(journal.last?["outcome"] as? String == "interrupted")
        let status = try work.milepost.run("status", "--format", "json")
        #expect(try ReliabilityFixture.object(status.stdout)["lock_holder"] == nil, "\(status.stdout)")
        let next = try work.milepost.run("run", "--to", "2", "--lock-timeout", "0ms")
        #expect(next.status == 2, "signal \(signal): \(next.stderr)")
    }
}
