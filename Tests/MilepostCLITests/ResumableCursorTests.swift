import Foundation
import MilepostTestSupport
import Testing

/// Cursors of a long `exec` step: written as `cursor TEXT` lines on `MILEPOST_CONTROL_FD`, durable
/// in the store, handed back as `MILEPOST_RESUME_CURSOR` after a `kill -9` of the runner.
@Suite struct ResumableCursorTests {
    /// Starts a run to 2.1 and, once the step holds after `ItemScript.holdAfter` items and its
    /// stored cursor is `ItemScript.lastCursor`, kills the runner and the step's process group with
    /// SIGKILL (a host that dies).
    static func killMidway(_ work: WorkDirectory, resumable: Bool) throws {
        try work.write(ItemScript.manifest(resumable: resumable), to: "milepost.yaml")
        try work.write("", to: "hold")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "2.1"])
        #expect(ReliabilityFixture.eventually {
            ItemScript.processed(in: work.path).count == ItemScript.holdAfter && storedCursor(work) == String(ItemScript.lastCursor)
        })
        kill(process.processIdentifier, SIGKILL)
        kill(-(try ReliabilityFixture.pid(in: work, "step.pid")), SIGKILL)
        _ = MilepostBinary.finish(process, stdout, stderr, within: .seconds(30))
        #expect(process.terminationReason == .uncaughtSignal)
        try FileManager.default.removeItem(atPath: work.path + "/hold")
    }

    static func storedCursor(_ work: WorkDirectory) -> String? {
        let state = (try? work.read(".milepost/state.json")).flatMap { try? ReliabilityFixture.object($0) }
        return (state?["in_progress"] as? [String: Any])?["cursor"] as? String
    }

    static func starts(_ work: WorkDirectory) throws -> [Int] {
        try work.read("starts.txt").split(separator: "\n").compactMap { Int($0) }
    }

    @Test func aKilledResumableStepResumesAtItsLastCursorOnThePlainNextRun() throws {
        let work = try WorkDirectory()
        try Self.killMidway(work, resumable: true)
        let status = try work.milepost.run("status", "--to", "2.1")
        #expect(status.stdout.contains("2.1/items was interrupted; it is resumable and the next run resumes it at its cursor 50\n"), "\(status.stdout)")
        #expect(status.stdout.contains("  cursor      50\n"))
        let plan = try work.milepost.run("plan", "--to", "2.1")
        #expect(plan.stdout.contains("resumes at its cursor 50"), "\(plan.stdout)")
        #expect(!plan.stdout.contains("note: 2.1/items is not idempotent"))
        let planJSON = try ReliabilityFixture.object(try work.milepost.run("plan", "--to", "2.1", "--format", "json").stdout)
        let planned = try #require((planJSON["steps"] as? [[String: Any]])?.first)
        #expect(planned["resumable"] as? Bool == true)
        #expect(planned["idempotent"] as? Bool == false)

        let next = try work.milepost.run("run", "--to", "2.1")
        #expect(next.status == 0, "\(next.stderr)")

        #expect(try Self.starts(work) == [0, ItemScript.lastCursor])
        let processed = ItemScript.processed(in: work.path)
        for item in 1...100 {
            #expect(processed.count { $0 == item } == ItemScript.timesProcessedAfterResume(item), "item \(item)")
        }
        let after = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect(after["in_progress"] == nil)
        #expect(after["version"] as? String == "2.1")
        let started = try ReliabilityFixture.journal(in: work).filter { $0["event"] as? String == "step-started" }
        #expect(started.map { $0["cursor"] as? String } == [nil, String(ItemScript.lastCursor)])
    }

    @Test func aStepThatIsNotResumableStillBlocksTheNextRun() throws {
        let work = try WorkDirectory()
        try Self.killMidway(work, resumable: false)
        let next = try work.milepost.run("run", "--to", "2.1")
        #expect(next.status == 2, "\(next.stderr)")
        #expect(try Self.starts(work) == [0])
    }

    @Test func resolveRetryKeepsTheCursorAndFromStartDiscardsIt() throws {
        let work = try WorkDirectory()
        try Self.killMidway(work, resumable: false)
        let cursor = String(ItemScript.lastCursor)

        let kept = try work.milepost.run("resolve", "2.1/items", "--retry")
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(kept.stdout == "2.1/items: will run again on the next run, at its cursor \(cursor)\n")
        #expect(try ReliabilityFixture.journal(in: work).last?["cursor"] as? String == cursor)
        let failed = try #require(try ReliabilityFixture.object(try work.read(".milepost/state.json"))["failed"] as? [String: Any])
        #expect(failed["cursor"] as? String == cursor)

        let again = try work.milepost.run("resolve", "2.1/items", "--retry", "--from-start")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "2.1/items: will run again on the next run\n")
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect(state["failed"] == nil && state["in_progress"] == nil)

        let next = try work.milepost.run("run", "--to", "2.1")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.starts(work) == [0, 0])
    }

    /// `ItemScript.manifest` with a step `2.0/first` before `2.1/items`: it appends to `first.txt`
    /// and fails while `first-fails` exists.
    static func manifestWithAStepBefore(resumable: Bool) -> String {
        """
        migrations:
          "2.0":
            - name: exec
              id: first
              with: {command: [sh, -c, 'echo ran >> first.txt; test ! -e first-fails']}
        """ + ItemScript.manifest(resumable: resumable).dropFirst("migrations:".count)
    }

    @Test func aStepAddedBeforeAnInterruptedOneLeavesItsCursorInPlace() throws {
        let work = try WorkDirectory()
        try Self.killMidway(work, resumable: true)
        try work.write(Self.manifestWithAStepBefore(resumable: true), to: "milepost.yaml")
        try work.write("", to: "first-fails")

        // The step before fails: the interrupted step's mark, cursor included, is set aside, not replaced.
        let failing = try work.milepost.run("run", "--to", "2.1")
        #expect(failing.status == 1, "\(failing.stderr)")
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect((state["failed"] as? [String: Any])?["id"] as? String == "2.0/first")
        let aside = try #require((state["set_aside"] as? [[String: Any]])?.first?["interrupted"] as? [String: Any])
        #expect(aside["id"] as? String == "2.1/items" && aside["cursor"] as? String == String(ItemScript.lastCursor))
        let plan = try work.milepost.run("plan", "--to", "2.1")
        #expect(plan.stdout.contains("resumes at its cursor 50"), "\(plan.stdout)")

        // Fixed, the step before runs, and the interrupted step resumes at its cursor: no item twice but 51–55.
        try FileManager.default.removeItem(atPath: work.path + "/first-fails")
        let next = try work.milepost.run("run", "--to", "2.1")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try work.read("first.txt") == "ran\nran\n")
        #expect(try Self.starts(work) == [0, ItemScript.lastCursor])
        let processed = ItemScript.processed(in: work.path)
        for item in 1...100 {
            #expect(processed.count { $0 == item } == ItemScript.timesProcessedAfterResume(item), "item \(item)")
        }
        let after = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect(after["set_aside"] == nil && after["in_progress"] == nil && after["failed"] == nil)
    }

    @Test func aFailedStepsCursorSurvivesTheFailureOfAStepBeforeIt() throws {
        let work = try WorkDirectory()
        try Self.killMidway(work, resumable: false)
        #expect(try work.milepost.run("resolve", "2.1/items", "--retry").status == 0)
        try work.write(Self.manifestWithAStepBefore(resumable: false), to: "milepost.yaml")
        try work.write("", to: "first-fails")

        let failing = try work.milepost.run("run", "--to", "2.1")
        #expect(failing.status == 1, "\(failing.stderr)")
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect((state["failed"] as? [String: Any])?["id"] as? String == "2.0/first")
        let aside = try #require((state["set_aside"] as? [[String: Any]])?.first?["failed"] as? [String: Any])
        #expect(aside["id"] as? String == "2.1/items" && aside["cursor"] as? String == String(ItemScript.lastCursor))

        try FileManager.default.removeItem(atPath: work.path + "/first-fails")
        let next = try work.milepost.run("run", "--to", "2.1")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.starts(work) == [0, ItemScript.lastCursor])
    }

    @Test func fromStartNeedsRetry() throws {
        let work = try WorkDirectory()
        let result = try work.milepost.run("resolve", "2.1/items", "--done", "--from-start")
        #expect(result.status == 64)
        #expect(result.stderr.contains("--from-start goes with --retry"), "\(result.stderr)")
    }
}

/// Cancellation an `exec` step can honour: SIGTERM to the runner reaches the step's process group;
/// a step that commits its cursor on SIGTERM before exiting resumes exactly there.
@Suite struct ExecCancellationCursorTests {
    /// Counts up from `MILEPOST_RESUME_CURSOR`, one item per 20 ms; on SIGTERM writes the last item
    /// done as its cursor and exits 143.
    static let manifest = """
        migrations:
          1:
            - name: exec
              id: counter
              resumable: true
              with: {command: [sh, -c, 'i=${MILEPOST_RESUME_CURSOR:-0}; echo "$i" >> starts.txt; trap "echo cursor \\$i >&$MILEPOST_CONTROL_FD; exit 143" TERM; while [ $i -lt 200 ]; do i=$((i+1)); echo $i >> done.txt; if [ $i -eq 20 ] && [ -e hold ]; then touch held; while [ -e hold ]; do sleep 0.01; done; fi; done']}
        """

    @Test func aStepThatCommitsItsCursorOnSIGTERMResumesExactlyThere() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("", to: "hold")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1"])
        #expect(ReliabilityFixture.eventually { work.exists("held") })
        kill(process.processIdentifier, SIGTERM)
        let stopped = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        #expect(stopped.status == 143, "\(stopped.stderr)")
        let mark = try #require(try ReliabilityFixture.object(try work.read(".milepost/state.json"))["in_progress"] as? [String: Any])
        #expect(mark["cursor"] as? String == "20")

        try FileManager.default.removeItem(atPath: work.path + "/hold")
        let next = try work.milepost.run("run", "--to", "1")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try work.read("starts.txt") == "0\n20\n")
        #expect(try work.read("done.txt").split(separator: "\n").compactMap { Int($0) } == Array(1...200))
    }
}
