import Foundation
import Testing

/// `kill -9` in the windows `state.log` opens, through the real binary (`MILEPOST_FAILPOINT`): a
/// commit whose line is fdatasynced counts, though `state.json` and the journal do not show it yet,
/// and the next command sees it exactly once; a torn line was never committed.
@Suite struct ReliabilityStateLogTests {
    static let manifest = ReliabilityFailPointTests.manifest

    /// Killed after the log's fdatasync, before `state.json` is replaced: the in-progress mark of
    /// 2.0/two is committed. `status` (no lock) reads it from the log; the next run replays the log
    /// under the lock, finds the step interrupted (it is not idempotent) and appends its
    /// `step-started` to the journal once.
    @Test func aCommitWhoseLogLineIsSyncedSurvivesTheKill() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        let old = try work.read(".milepost/state.json")
        #expect(!work.exists(".milepost/state.log"), "a finished run leaves no log")

        let process = try Self.kill(work, at: "state-after-log-sync")
        #expect(try work.read(".milepost/state.json") == old, "state.json is not replaced yet")
        #expect(work.exists(".milepost/state.log"))
        #expect(try ReliabilityFailPointTests.tempFiles(in: work).count == 1)

        let status = try work.milepost.run("status", "--format", "json")
        let interrupted = try ReliabilityFixture.object(status.stdout)["interrupted"] as? [String: Any]
        #expect(interrupted?["id"] as? String == "2.0/two", "\(status.stdout)")

        let next = try work.milepost.run("run", "--to", "2.0", "--lock-timeout", "0ms")
        #expect(next.status == 2, "\(next.stderr)")
        #expect(next.stderr.contains("step 2.0/two was interrupted (pid \(process.processIdentifier)"))
        #expect(!work.exists(".milepost/state.log"), "the replay removes the log")
        #expect(try ReliabilityFailPointTests.tempFiles(in: work).isEmpty)
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect((state["in_progress"] as? [String: Any])?["id"] as? String == "2.0/two")
        let started = try ReliabilityFixture.journal(in: work).filter {
            $0["event"] as? String == "step-started" && $0["step"] as? String == "2.0/two"
        }
        #expect(started.count == 1)

        #expect(try work.milepost.run("resolve", "2.0/two", "--retry").status == 0)
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try work.read("ran.txt") == "1.0/one\n2.0/two\n")
    }

    /// Killed with half of the commit's line written: nothing was committed. The next run ignores
    /// the torn line, removes the log and runs the step once.
    @Test func aTornLogLineWasNeverCommitted() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        let old = try work.read(".milepost/state.json")

        _ = try Self.kill(work, at: "state-log-torn")
        #expect(try work.read(".milepost/state.json") == old)
        #expect(try !work.read(".milepost/state.log").hasSuffix("\n"), "the log ends in a torn line")
        let status = try work.milepost.run("status", "--format", "json")
        #expect(try ReliabilityFixture.object(status.stdout)["interrupted"] == nil, "\(status.stdout)")

        let next = try work.milepost.run("run", "--to", "2.0", "--lock-timeout", "0ms")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(!work.exists(".milepost/state.log"))
        #expect(try work.read("ran.txt") == "1.0/one\n2.0/two\n")
        let started = try ReliabilityFixture.journal(in: work).filter {
            $0["event"] as? String == "step-started" && $0["step"] as? String == "2.0/two"
        }
        #expect(started.count == 1)
    }

    /// Runs `run --to 2.0` with `failPoint` armed: its first commit (2.0/two in progress) kills it.
    static func kill(_ work: WorkDirectory, at failPoint: String) throws -> Process {
        var dying = work.milepost
        dying.environment["MILEPOST_FAILPOINT"] = failPoint
        let (process, stdout, stderr) = try dying.start(["run", "--to", "2.0"])
        _ = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(try work.read("ran.txt") == "1.0/one\n", "the step never started")
        return process
    }

    /// A `state.log` that is a directory (no file Milepost wrote: it holds no commit) failed every
    /// command with "move it away and run `milepost baseline …`": moving the state away and running
    /// baseline as printed exited 74 (the log is replayed first), and moving the log away made
    /// baseline refuse (64), the state being there. The advice names the file and looks at what is
    /// left first; followed as printed, the store works again with its state (issue 42, item 14).
    @Test func theAdviceForALogThatIsADirectoryWorksAsPrinted() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        try FileManager.default.createDirectory(atPath: work.path + "/.milepost/state.log", withIntermediateDirectories: false)

        let failed = try work.milepost.run("run", "--to", "2.0")
        #expect(failed.status == 74, "\(failed.stderr)")
        let advice = "move .milepost/state.log away and run `milepost status`: if it shows no state, `milepost baseline VERSION` starts over"
        #expect(failed.stderr.contains(advice), "\(failed.stderr)")
        try FileManager.default.moveItem(atPath: work.path + "/.milepost/state.log", toPath: work.path + "/moved-away")
        let status = try work.milepost.run("status")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("version     1.0"), "\(status.stdout)")
        let resumed = try work.milepost.run("run", "--to", "2.0")
        #expect(resumed.status == 0, "\(resumed.stderr)")
    }
}

