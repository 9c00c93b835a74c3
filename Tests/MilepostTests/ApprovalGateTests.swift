import Milepost
import MilepostTestSupport
import Testing

/// The planner's approval rule (`StepApprovals.gate`), table-driven: which approval lets a
/// `requires: approval` step start, and where a run stops.
@Suite struct ApprovalGateTests {
    static let manifest = """
        migrations:
          "2.1":
            - {name: note, id: before}
            - {name: note, id: drop, requires: approval}
            - {name: note, id: after}
        """

    /// An approval recorded for the step: its fingerprint (nil: the step's as it is now) and plan.
    struct Recorded: Sendable, CustomTestStringConvertible {
        var fingerprint: String?
        var plan: String?
        var testDescription: String { "approval(fingerprint: \(fingerprint ?? "current"), plan: \(plan ?? "none"))" }
    }

    @Test(arguments: [
        // No approval: the step awaits one, and the run stops before it.
        ([Recorded](), nil as String?, Plan.Status.awaitingApproval),
        // An approval of the step as it is: it starts, in any run.
        ([Recorded(fingerprint: nil, plan: nil)], nil, .pending),
        ([Recorded(fingerprint: nil, plan: nil)], "p1", .pending),
        // An approval of an earlier entry does not count.
        ([Recorded(fingerprint: "0000000000000000", plan: nil)], nil, .awaitingApproval),
        // An approval for a reviewed plan counts for a run of that plan only.
        ([Recorded(fingerprint: nil, plan: "p1")], "p1", .pending),
        ([Recorded(fingerprint: nil, plan: "p1")], "p2", .awaitingApproval),
        ([Recorded(fingerprint: nil, plan: "p1")], nil, .awaitingApproval),
    ])
    func approvalRule(recorded: [Recorded], runPlan: String?, expected: Plan.Status) throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.manifest)
        let drop = try #require(manifest.step(id: "2.1/drop"))
        let journal = recorded.map { approval in
            JournalRecord(
                time: Timestamp("2026-01-02T03:04:00.001Z")!, run: "r", event: .approved, step: drop.id,
                fingerprint: approval.fingerprint ?? drop.fingerprint, by: "alice", plan: approval.plan)
        }
        let plan = Planner.plan(
            manifest, state: nil, from: Version("2.0"), origin: .given, to: Version("2.1"),
            approvals: StepApprovals(journal: journal, plan: runPlan))
        #expect(plan.entries.map(\.status) == [.pending, expected, .pending])
        // Work ahead either way; a run runs the steps before the gate only.
        #expect(plan.pending.map(\.id) == ["2.1/before", "2.1/drop", "2.1/after"])
        #expect(plan.runnable.map(\.id) == (expected == .pending ? ["2.1/before", "2.1/drop", "2.1/after"] : ["2.1/before"]))
        #expect(plan.approvalGate?.step.id == (expected == .pending ? nil : "2.1/drop"))
    }

    @Test func aRunStopsBeforeTheGateUntilApproveJournalsAnApproval() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.manifest)
        let stopped = try await fixture.run(manifest, to: "2.1")
        #expect(stopped.outcome == .awaitingApproval)
        #expect(fixture.ran == ["2.1/before"])
        #expect(try await fixture.state()?.version == Version("0"))
        let failure = try #require(RunFailure(stopped))
        #expect(failure.step == "2.1/drop")

        let approval = try await fixture.runner().approve("2.1/drop", by: "alice", in: manifest)
        #expect(approval.by == "alice")
        let approved = try await fixture.run(manifest, to: "2.1")
        #expect(approved.outcome == .succeeded)
        #expect(fixture.ran == ["2.1/before", "2.1/drop", "2.1/after"])
        #expect(approved.approvals.map(\.by) == ["alice"])
        await #expect(throws: Runner.ApprovalError.completed(id: "2.1/drop")) {
            try await fixture.runner().approve("2.1/drop", by: "bob", in: manifest)
        }
        await #expect(throws: Runner.ApprovalError.notRequired(id: "2.1/after")) {
            try await fixture.runner().approve("2.1/after", by: "bob", in: manifest)
        }
    }
}
