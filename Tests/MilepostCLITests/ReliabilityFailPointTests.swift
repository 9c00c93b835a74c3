import Foundation
import Testing

/// `kill -9` at every point of a state write, through the real binary (`MILEPOST_FAILPOINT`):
/// `state.json` is always exactly the old or the new state, and the next run cleans up under the lock.
@Suite struct ReliabilityFailPointTests {
    static let manifest = ReliabilityFixture.recordingManifest(["1.0/one", "2.0/two"])

    @Test(arguments: ["state-after-temp-write", "state-before-log", "state-after-rename"])
    func killedWhileWritingTheStateLeavesTheOldOrTheNewState(failPoint: String) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        let old = try work.read(".milepost/state.json")
        let journalBefore = try work.read(".milepost/journal.jsonl")

        // The first state write of the run to 2.0 marks 2.0/two in progress, before the step starts.
        var dying = work.milepost
        dying.environment["MILEPOST_FAILPOINT"] = failPoint
        let (process, stdout, stderr) = try dying.start(["run", "--to", "2.0"])
        _ = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)

        let renamed = failPoint == "state-after-rename"
        let state = try work.read(".milepost/state.json")
        if renamed {
            let inProgress = try ReliabilityFixture.object(state)["in_progress"] as? [String: Any]
            #expect(inProgress?["id"] as? String == "2.0/two")
            #expect(inProgress?["pid"] as? Int == Int(process.processIdentifier))
        } else {
            #expect(state == old)
        }
        #expect(try Self.tempFiles(in: work).isEmpty == renamed)
        // Only `run-started` (appended before the first commit) made it; the commit's `step-started` did not.
        let journalAfter = try work.read(".milepost/journal.jsonl")
        #expect(journalAfter.hasPrefix(journalBefore))
        #expect(try ReliabilityFixture.journal(in: work).dropFirst(journalBefore.filter { $0 == "\n" }.count)
            .map { $0["event"] as? String } == ["run-started"])
        #expect(try work.read("ran.txt") == "1.0/one\n", "the step never started")

        // The lock is free at once. After the rename the step counts as interrupted (it is not
        // idempotent): the next run stops at it, and `resolve --retry` lets it run.
        let next = try work.milepost.run("run", "--to", "2.0", "--lock-timeout", "0ms")
        #expect(try Self.tempFiles(in: work).isEmpty, "stale temp files are removed under the lock")
        if renamed {
            #expect(next.status == 2, "\(next.stderr)")
            #expect(next.stderr.contains("step 2.0/two was interrupted (pid \(process.processIdentifier)"))
            #expect(try work.milepost.run("resolve", "2.0/two", "--retry").status == 0)
            #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        } else {
            #expect(next.status == 0, "\(next.stderr)")
        }
        #expect(try work.read("ran.txt") == "1.0/one\n2.0/two\n")
        _ = try ReliabilityFixture.journal(in: work)
    }

    static func tempFiles(in work: WorkDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: work.path + "/.milepost").filter { $0.hasPrefix("state.json.tmp.") }
    }
}
