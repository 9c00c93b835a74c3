import Foundation
import Testing

/// Reviewed plans (`plan --out`, `run --plan`) and approvals (`requires: approval`, `approve`),
/// run as the built binary.
@Suite struct ReviewedPlanTests {
    static let manifest = """
        app: shop
        migrations:
          "2.1":
            - {name: exec, id: a, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
          "2.2":
            - {name: exec, id: b, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
        """

    static func ran(_ work: WorkDirectory) throws -> [String] {
        work.exists("ran.txt") ? try work.read("ran.txt").split(separator: "\n").map(String.init) : []
    }

    @Test func aPlanFileRunsExactlyItsStepsWhenNothingChanged() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let plan = try work.milepost.run("plan", "--to", "2.2", "--out", "plan.json")
        #expect(plan.status == 0, "\(plan.stderr)")
        let file = try JSONValue(parsing: try work.read("plan.json"))
        #expect(file["steps"]?.array?.map { $0["id"]?.string } == ["2.1/a", "2.2/b"])
        #expect(file["to"]?.string == "2.2")
        #expect(file["inputs"]?.array?.first?["path"]?.string == "milepost.yaml")
        // The target comes from the plan.
        let run = try work.milepost.run("run", "--plan", "plan.json", "--format", "json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.ran(work) == ["2.1/a", "2.2/b"])
        let started = try ReliabilityFixture.journal(in: work).first { $0["event"] as? String == "run-started" }
        #expect((started?["plan"] as? String)?.count == 16)
    }

    @Test func aPlanFileIsRefusedAfterAManifestEdit() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("plan", "--to", "2.2", "--out", "plan.json").status == 0)
        try work.write(Self.manifest + "# reviewed? no\n", to: "milepost.yaml")
        let run = try work.milepost.run("run", "--plan", "plan.json", "--format", "json")
        #expect(run.status == 7, "\(run.stderr)")
        let report = try JSONValue(parsing: run.stdout)
        #expect(report["outcome"]?.string == "plan-changed")
        #expect(report["plan_changes"]?.array?.map { $0["subject"]?.string } == ["manifest"])
        #expect(report["plan_changes"]?.array?.first?["message"]?.string == "changed since the plan was made: milepost.yaml")
        #expect(try Self.ran(work) == [])
        #expect(!work.exists(".milepost/state.json"))
        // A --to other than the plan's is a change too.
        try work.write(Self.manifest, to: "milepost.yaml")
        let other = try work.milepost.run("run", "--plan", "plan.json", "--to", "2.1")
        #expect(other.status == 7)
        #expect(other.stderr.contains("the target: planned to 2.2, this run goes to 2.1"), "\(other.stderr)")
        #expect(try work.milepost.run("run", "--plan", "plan.json").status == 0)
    }

    @Test func aPlanFileIsRefusedAfterAnotherRunnerMovedTheStoreAndIsDoneWhenItFinishedIt() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("baseline", "2.0").status == 0)
        #expect(try work.milepost.run("plan", "--to", "2.2", "--out", "plan.json").status == 0)
        // Another runner got part of the way.
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        let moved = try work.milepost.run("run", "--plan", "plan.json")
        #expect(moved.status == 7, "\(moved.stderr)")
        #expect(moved.stderr.contains("the store moved since the plan was made (another runner?): its version went from 2.0 to 2.1; "
            + "1 step completed since (2.1/a)"), "\(moved.stderr)")
        #expect(moved.stderr.contains("the steps: planned 2.1/a, 2.2/b; this run would run 2.2/b"), "\(moved.stderr)")
        #expect(try Self.ran(work) == ["2.1/a"])

        // A new plan; another runner runs it first: this one finds it done.
        #expect(try work.milepost.run("plan", "--to", "2.2", "--out", "plan.json").status == 0)
        #expect(try work.milepost.run("run", "--plan", "plan.json").status == 0)
        let again = try work.milepost.run("run", "--plan", "plan.json", "--format", "json")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try JSONValue(parsing: again.stdout)["outcome"]?.string == "up-to-date")
        #expect(try Self.ran(work) == ["2.1/a", "2.2/b"])
    }

    static let gated = """
        app: shop
        migrations:
          "3.0":
            - {name: exec, id: expand, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: drop, requires: approval, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: after, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
        """

    @Test func aStepThatRequiresApprovalStopsRunsUntilApproveJournalsOne() throws {
        let work = try WorkDirectory()
        try work.write(Self.gated, to: "milepost.yaml")
        let stopped = try work.milepost.run("run", "--to", "3.0", "--format", "github")
        #expect(stopped.status == 8, "\(stopped.stderr)")
        #expect(try Self.ran(work) == ["3.0/expand"])
        #expect(stopped.stdout.contains("::warning file=milepost.yaml,line=5,title=milepost%3A 3.0/drop awaits approval::"), "\(stopped.stdout)")
        #expect(stopped.stderr.contains("3.0/drop requires approval: the run stops before it (1 step ran"), "\(stopped.stderr)")

        let status = try JSONValue(parsing: try work.milepost.run("status", "--to", "3.0", "--format", "json").stdout)
        #expect(status["awaiting_approval"]?.array?.map(\.string) == ["3.0/drop"])
        let next = status["next"]?.array?.first
        #expect(next?["command"]?.array?.compactMap(\.string) == ["milepost", "approve", "3.0/drop", "--by", "NAME"], "\(status)")
        #expect(next?["when"]?.string == "once you have reviewed 3.0/drop", "\(status)")
        #expect(try work.milepost.run("status", "--check", "--to", "3.0").status == 4)
        let plan = try work.milepost.run("plan", "--to", "3.0")
        #expect(plan.stdout.contains("awaiting-approval 3.0/drop"), "\(plan.stdout)")

        let approve = try work.milepost.run("approve", "3.0/drop", "--by", "alice")
        #expect(approve.status == 0, "\(approve.stderr)")
        let history = try work.milepost.run("history")
        #expect(history.stdout.contains("approved        3.0/drop"), "\(history.stdout)")
        #expect(history.stdout.contains("approved by alice"), "\(history.stdout)")
        let run = try work.milepost.run("run", "--to", "3.0", "--format", "github")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("::notice title=milepost%3A 3.0/drop approved::approved by alice at "), "\(run.stdout)")
        #expect(try Self.ran(work) == ["3.0/expand", "3.0/drop", "3.0/after"])
        #expect(try work.milepost.run("approve", "3.0/drop", "--by", "bob").status == 64)
        #expect(try work.milepost.run("approve", "3.0/after", "--by", "bob").status == 64)
    }

    @Test func anApprovalIsOfTheStepAsItIsAndOneForAPlanCountsForThatPlanOnly() throws {
        let work = try WorkDirectory()
        try work.write(Self.gated, to: "milepost.yaml")
        #expect(try work.milepost.run("approve", "3.0/drop", "--by", "alice").status == 0)
        // Edited after it was approved: it needs a new approval.
        let edited = Self.gated.replacingOccurrences(of: "id: drop, requires: approval, with: {command: [sh, -c,",
                                                     with: "id: drop, requires: approval, with: {command: [sh, -ec,")
        try work.write(edited, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "3.0").status == 8)
        #expect(try Self.ran(work) == ["3.0/expand"])

        // A reviewed plan with a step awaiting approval runs no step at all.
        #expect(try work.milepost.run("plan", "--to", "3.0", "--out", "plan.json").status == 0)
        let unapproved = try work.milepost.run("run", "--plan", "plan.json")
        #expect(unapproved.status == 8, "\(unapproved.stderr)")
        #expect(try Self.ran(work) == ["3.0/expand"])
        let approve = try work.milepost.run("approve", "3.0/drop", "--by", "carol", "--plan", "plan.json")
        #expect(approve.status == 0, "\(approve.stderr)")
        // Only a run of that plan may start it.
        #expect(try work.milepost.run("run", "--to", "3.0").status == 8)
        let run = try work.milepost.run("run", "--plan", "plan.json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.ran(work) == ["3.0/expand", "3.0/drop", "3.0/after"])
    }

    @Test func approveRefusesAPlanThatNoLongerHolds() throws {
        let work = try WorkDirectory()
        try work.write(Self.gated, to: "milepost.yaml")
        #expect(try work.milepost.run("plan", "--to", "3.0", "--out", "plan.json").status == 0)
        try work.write(Self.gated + "# edited\n", to: "milepost.yaml")
        let approve = try work.milepost.run("approve", "3.0/drop", "--by", "alice", "--plan", "plan.json")
        #expect(approve.status == 7, "\(approve.stderr)")
        #expect(approve.stderr.contains("the manifest changed since the plan was made"), "\(approve.stderr)")
    }
}
