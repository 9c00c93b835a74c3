import Foundation
import Testing

/// A running `exec` step's `progress DONE/TOTAL MESSAGE` lines on `MILEPOST_CONTROL_FD`, seen by
/// `milepost status` from a second process while the run goes on.
@Suite struct StepProgressCLITests {
    /// Reports 30 of 100, then waits while the file `hold` exists.
    static let manifest = """
        migrations:
          1:
            - name: exec
              id: long
              with: {command: [sh, -c, 'echo "progress 10/100 warming up" >&$MILEPOST_CONTROL_FD; sleep 0.2; echo "progress 30/100 reindexing" >&$MILEPOST_CONTROL_FD; touch reported; while [ -e hold ]; do sleep 0.01; done']}
        """

    @Test func statusFromAnotherProcessShowsTheRunningStepsProgress() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("", to: "hold")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1", "--progress-interval", "0ms"])
        defer { _ = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60)) }
        #expect(ReliabilityFixture.eventually {
            guard work.exists("reported"), let json = try? work.milepost.run("status", "--format", "json").stdout,
                  let status = try? ReliabilityFixture.object(json),
                  let running = status["running"] as? [String: Any], let progress = running["progress"] as? [String: Any]
            else { return false }
            return progress["completed"] as? Int == 30
        })
        let json = try ReliabilityFixture.object(try work.milepost.run("status", "--format", "json").stdout)
        let progress = try #require((json["running"] as? [String: Any])?["progress"] as? [String: Any])
        #expect(progress["total"] as? Int == 100)
        #expect(progress["message"] as? String == "reindexing")
        #expect(ReliabilityFixture.isTimestamp(try #require(progress["at"] as? String)))
        #expect((progress["rate"] as? Double).map { $0 > 0 } == true, "\(progress)")

        let text = try work.milepost.run("status")
        #expect(text.stdout.contains("  progress    30/100 (30%), "), "\(text.stdout)")
        #expect(text.stdout.contains("/s, ETA "))
        #expect(text.stdout.contains(": reindexing\n"))
        #expect(text.stdout.contains("  heartbeat   20"))

        try FileManager.default.removeItem(atPath: work.path + "/hold")
        let events = try ReliabilityFixture.journal(in: work).filter { $0["event"] as? String == "step-progress" }
        #expect(events.map { $0["completed"] as? Int } == [10, 30])
        #expect(events.last?["message"] as? String == "reindexing")
        let history = try work.milepost.run("history")
        #expect(history.stdout.contains("30/100: reindexing\n"), "\(history.stdout)")
    }

    /// Once the runner and its step are killed, `status` shows the step's last report as such:
    /// no rate and no time left for a process that is gone.
    @Test func statusShowsAKilledStepsLastReportWithoutARateOrAnETA() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest.replacingOccurrences(of: "touch reported;", with: "echo $$ > step.pid; touch reported;"), to: "milepost.yaml")
        try work.write("", to: "hold")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1", "--progress-interval", "0ms"])
        #expect(ReliabilityFixture.eventually { work.exists("reported") })
        #expect(ReliabilityFixture.eventually { (try? work.milepost.run("status").stdout)?.contains("ETA") == true })
        kill(process.processIdentifier, SIGKILL)
        kill(-(try ReliabilityFixture.pid(in: work, "step.pid")), SIGKILL)
        _ = MilepostBinary.finish(process, stdout, stderr, within: .seconds(30))
        #expect(ReliabilityFixture.eventually { (try? work.milepost.run("status").stdout)?.contains("interrupted 1/long") == true })

        let text = try work.milepost.run("status").stdout
        #expect(text.contains("  last report 30/100 (30%): reindexing\n"), "\(text)")
        #expect(text.contains("  reported    20"), "\(text)")
        #expect(!text.contains("ETA") && !text.contains("/s") && !text.contains("heartbeat"), "\(text)")
    }
}
