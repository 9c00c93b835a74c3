import Foundation
import MilepostTestSupport
import Testing

/// Every documented exit code, produced by the real binary.
@Suite struct ExitCodeTests {
    static let manifest = """
        app: demo
        baseline: "1.0"
        migrations:
          2.1:
            - name: exec
              id: touch
              with: {command: [sh, -c, 'echo "$MILEPOST_STEP $MILEPOST_FROM $MILEPOST_TO" >> ran.txt']}
          2.7:
            - name: exec
              id: later
              with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}
        """

    @Test func zeroOnSuccessAndWhenNothingIsLeft() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let first = try work.milepost.run("run", "--to", "2.1")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try work.read("ran.txt") == "2.1/touch 1.0 2.1\n")
        let again = try work.milepost.run("run", "--to", "2.1")
        #expect(again.status == 0)
        #expect(again.stderr.contains("up to date at 2.1"))
        #expect(try work.read("ran.txt") == "2.1/touch 1.0 2.1\n")
    }

    @Test func oneWhenAStepFails() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1:\n    - name: exec\n      with: {command: [sh, -c, 'echo boom >&2; exit 3']}\n", to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "1")
        #expect(result.status == 1)
        #expect(result.stderr.contains("FAILED in"), "\(result.stderr)")
        // The step's stderr once (as it wrote it), its error once (the FAILED line).
        #expect(result.stderr.components(separatedBy: "boom").count == 2, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "'sh' exited with status 3").count == 2, "\(result.stderr)")
    }

    @Test func twoWhenAKilledStepNeedsResolving() throws {
        let work = try WorkDirectory()
        let holder = try Self.startLockHolder(in: work)
        Self.stop(holder, in: work)
        let result = try work.milepost.run("run", "--to", "1", "--lock-timeout", "1s")
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("step 1/exec was interrupted (pid \(holder.process.processIdentifier)"), "\(result.stderr)")
        let resolved = try work.milepost.run("resolve", "1/exec", "--done")
        #expect(resolved.status == 0)
        #expect(try work.milepost.run("run", "--to", "1").status == 0)
    }

    @Test func threeOnARefusedDowngrade() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.7").status == 0)
        let refused = try work.milepost.run("run", "--to", "2.1")
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("--allow-downgrade"))
        #expect(try work.milepost.run("run", "--to", "2.1", "--allow-downgrade").status == 0)
    }

    @Test(arguments: [
        ["run"], ["run", "--to", "2.x"], ["run", "--to", "1", "--bogus"], ["plan", "--from", "1", "--store", "s", "--to", "2"],
        ["resolve", "1/x"], ["frobnicate"], ["run", "--to", "1", "--lock-timeout", "soon"],
    ])
    func sixtyFourOnUsageErrors(arguments: [String]) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
    }

    @Test func sixtyFiveOnAnInvalidManifest() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  2.1:\n    - exce\n", to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "2.1")
        #expect(result.status == 65)
        #expect(result.stderr.contains("milepost.yaml:3:7: error: unknown step 'exce'"), "\(result.stderr)")
        #expect(result.stderr.contains("note: did you mean 'exec'?"))
        #expect(!work.exists(".milepost"))
    }

    @Test func sixtySixWhenTheManifestIsMissing() throws {
        let work = try WorkDirectory()
        let result = try work.milepost.run("validate", "--manifest", "nope.yaml")
        #expect(result.status == 66)
        #expect(result.stderr.contains("nope.yaml"))
    }

    @Test func seventyFourOnACorruptState() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("{not json", to: ".milepost/state.json")
        let result = try work.milepost.run("run", "--to", "2.1")
        #expect(result.status == 74)
        #expect(try work.read(".milepost/state.json") == "{not json")
    }

    @Test func seventyFiveWhenTheLockIsHeld() throws {
        let work = try WorkDirectory()
        let holder = try Self.startLockHolder(in: work)
        defer { Self.stop(holder, in: work) }
        let result = try work.milepost.run("run", "--to", "1", "--lock-timeout", "300ms")
        #expect(result.status == 75)
        #expect(result.stderr.contains("pid \(holder.process.processIdentifier)"), "\(result.stderr)")
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func signalsInterruptTheStep(signal: Int32, expected: Int32) throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1:\n    - name: exec\n      with: {command: [sh, -c, 'echo $$ > step.pid; touch started; exec sleep 30']}\n  2: [{name: exec, with: {command: [touch, second]}}]\n", to: "milepost.yaml")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "2", "--termination-grace", "5s"])
        for _ in 0..<1000 where !work.exists("started") { usleep(10_000) }
        kill(process.processIdentifier, signal)
        let result = MilepostBinary.finish(process, stdout, stderr)
        #expect(result.status == expected, "\(result.stderr)")
        #expect(!work.exists("second"))
        let journal = try work.read(".milepost/journal.jsonl")
        #expect(journal.contains(#""event":"step-interrupted""#))
        #expect(try work.milepost.run("run", "--to", "2", "--lock-timeout", "1s").status == 2)
    }

    @Test func aSignalWhileWaitingForTheLockExits143() throws {
        let work = try WorkDirectory()
        let holder = try Self.startLockHolder(in: work)
        defer { Self.stop(holder, in: work) }
        let (waiter, stdout, stderr) = try work.milepost.start(["run", "--to", "1", "--lock-timeout", "30s"])
        // Waiting for the lock means the lock file is open (signal handlers come before the lock);
        // a fixed sleep sent SIGTERM before the handlers existed on a loaded machine.
        let lock = URL(fileURLWithPath: work.path + "/.milepost/lock").resolvingSymlinksInPath().path
        #expect(ReliabilityFixture.eventually {
            ReliabilityRaceTests.openFiles(of: waiter.processIdentifier).contains(lock)
        })
        kill(waiter.processIdentifier, SIGTERM)
        let result = MilepostBinary.finish(waiter, stdout, stderr)
        #expect(result.status == 143, "\(result.stderr)")
    }

    /// A `milepost run` holding the store's lock inside a 30 s step, once the step has started.
    static func startLockHolder(in work: WorkDirectory) throws -> (process: Process, stdout: ExecClosingPipe, stderr: ExecClosingPipe) {
        try work.write("migrations:\n  1:\n    - name: exec\n      with: {command: [sh, -c, 'echo $$ > step.pid; touch started; exec sleep 30']}\n", to: "milepost.yaml")
        let holder = try work.milepost.start(["run", "--to", "1"])
        for _ in 0..<1000 where !work.exists("started") { usleep(10_000) }
        return holder
    }

    static func stop(_ holder: (process: Process, stdout: ExecClosingPipe, stderr: ExecClosingPipe), in work: WorkDirectory) {
        kill(holder.process.processIdentifier, SIGKILL)
        work.killOrphanedStep()
        _ = MilepostBinary.finish(holder.process, holder.stdout, holder.stderr)
    }
}
