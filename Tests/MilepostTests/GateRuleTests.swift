import Foundation
import Milepost
import MilepostTestSupport
import Testing

/// The rules behind the gates (issue 43), directly: `Readiness` with the compatibility floor (the
/// rule `run`'s downgrade refusal is), `Planner.plans` (`plan --from`) against the plan of a real
/// store that ran its releases, and `after: background`.
@Suite struct GateRuleTests {
    struct FloorCase: Sendable, CustomTestStringConvertible {
        var stored: String
        var floor: (version: String, step: String?)?
        var target: String
        /// nil: ready; else the refusal's text.
        var refusal: String?
        var testDescription: String { "\(target) on \(stored), floor \(floor.map { $0.version } ?? "none")" }
    }

    static let floorCases: [FloorCase] = [
        FloorCase(stored: "2.0", floor: nil, target: "2.0", refusal: nil),
        FloorCase(stored: "2.0", floor: ("1.0", nil), target: "1.0", refusal: nil),
        FloorCase(stored: "2.0", floor: ("1.0", nil), target: "1.5", refusal: nil),
        FloorCase(stored: "2.0", floor: ("2.0", "2.0/drop"), target: "2.0", refusal: nil),
        FloorCase(
            stored: "2.0", floor: ("2.0", "2.0/drop"), target: "1.0",
            refusal: "1.0 is below the store's compatibility floor 2.0 (stored version 2.0); the contract step 2.0/drop made older releases incompatible"),
        FloorCase(
            stored: "2.3", floor: ("1.0", nil), target: "0.9",
            refusal: "0.9 is below the store's compatibility floor 1.0 (stored version 2.3)"),
        FloorCase(
            stored: "2.7", floor: nil, target: "2.1",
            refusal: "2.1 is below the stored version 2.7, and the store keeps no compatibility with older releases"),
    ]

    /// `Readiness` and `run` answer from one rule: below the floor is `.belowFloor` with the
    /// refusal `run` journals; at or above it, ready.
    @Test(arguments: floorCases)
    func readinessRefusesBelowTheFloorAsRunDoes(_ example: FloorCase) throws {
        var state = StoredState(app: nil, version: Version(example.stored)!, updatedAt: Timestamp(millisecondsSince1970: 0))
        state.floor = example.floor.map { CompatibilityFloor(version: Version($0.version)!, step: $0.step) }
        let readiness = Readiness(state, for: Version(example.target)!)
        let refusal = CompatibilityFloor.refusal(of: Version(example.target)!, stored: state.version, floor: state.floor)
        #expect(refusal?.description == example.refusal)
        if let refusal {
            #expect(readiness == .belowFloor(refusal))
        } else {
            #expect(readiness == .ready)
        }
    }

    /// An unfinished revert comes before the floor: it is what no version is ready for.
    @Test func anUnfinishedRevertComesBeforeTheFloor() {
        var state = StoredState(app: nil, version: Version("3.0"), updatedAt: Timestamp(millisecondsSince1970: 0))
        state.reverting = UnfinishedRevert(to: Version("1.0"), run: "r", since: Timestamp(millisecondsSince1970: 0))
        #expect(Readiness(state, for: Version("1.0")) == .revertUnfinished(state.reverting!))
    }

    /// Below the floor is decided before a step's mark, as `run` decides a downgrade first: a
    /// failed step at or below the target does not turn exit 3 into exit 1.
    @Test func theFloorComesBeforeAFailedStep() throws {
        var state = StoredState(app: nil, version: Version("2.0"), updatedAt: Timestamp(millisecondsSince1970: 0))
        state.floor = CompatibilityFloor(version: Version("2.0"), step: "2.0/drop")
        state.failed = FailedStep(id: "1.0/late", run: "r", at: Timestamp(millisecondsSince1970: 0), error: "boom")
        let refusal = CompatibilityFloor.refusal(of: Version("1.0"), stored: state.version, floor: state.floor)
        #expect(Readiness(state, for: Version("1.0")) == .belowFloor(try #require(refusal)))
    }

    static let phases = """
        baseline: "0.5"
        migrations:
          "1.0": [note]
          "1.5":
            - {name: note, id: fresh, when: fresh-install}
            - {name: note, id: eu, labels: eu}
            - {name: note, id: contract15, phase: contract}
          "2.0":
            - {name: note, id: expand}
            - {name: note, id: contract20, phase: contract}
            - {name: note, id: backfill20, phase: background}
          "2.3": [{name: note, id: next}]
        """

    /// `plan --from A` plans what a store that reached A by a pre-start run from the baseline runs:
    /// for each A, the statuses equal those of the plan of such a real store (its history started
    /// at the baseline, `baseline 0.5`, then `run --to A`).
    @Test(arguments: ["1.0", "1.5", "2.0"])
    func planFromAVersionIsThePlanOfAStoreThatRanThere(_ version: String) async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.phases)
        _ = try await fixture.runner().maintenance.baseline(manifest.baseline)
        #expect(try await fixture.run(manifest, to: version).outcome == .succeeded)
        let stored = try await fixture.runner().plan(manifest, to: Version("2.3"))
        let given = try #require(Planner.plans(manifest, from: [Version(version)!], to: Version("2.3")).first)
        let statuses = { (plan: Plan) in plan.entries.map { "\($0.step.id) \($0.status.rawValue)" } }
        #expect(statuses(given) == statuses(stored))
        #expect(given.pending.map(\.id) == stored.pending.map(\.id))
        #expect(!given.entries.contains { $0.status == .skipped }, "no warning that a step will never run")
    }

    @Test func planFromTwoRunsTheOwedContractStepsFirstAndLeavesTheBackgroundStepWaiting() throws {
        let fixture = try RunnerFixture()
        let plan = try #require(Planner.plans(try fixture.manifest(Self.phases), from: [Version("2.0")], to: Version("2.3")).first)
        #expect(plan.pending.map(\.id) == ["1.5/contract15", "2.0/contract20", "2.3/next"])
        #expect(plan.waiting.map(\.step.id) == ["2.0/backfill20"])
        #expect(plan.entries.filter { $0.status == .completed }.map(\.step.id) == ["1.0/note", "1.5/eu", "2.0/expand"])
    }

    static let ordered = """
        migrations:
          "1.0": [{name: note, id: old-backfill, phase: background}]
          "2.0":
            - {name: note, id: drop, phase: contract, after: background}
            - {name: note, id: backfill, phase: background}
          "3.0": [{name: note, id: later, phase: background}]
        """

    /// A contract step `after: background` waits while a background step at or below its threshold
    /// is unfinished, in a contract run too, and is due once they completed; one above it does not count.
    @Test func aContractStepAfterBackgroundWaitsForTheBackgroundStepsAtOrBelowIt() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.ordered)
        #expect(try await fixture.run(manifest, to: "2.0").outcome == .succeeded)
        var contract = RunOptions()
        contract.phase = .contract
        let waiting = try await Runner(store: fixture.store, options: contract).plan(manifest, to: Version("2.0"))
        let drop = try #require(waiting.entries.first { $0.step.id == "2.0/drop" })
        #expect(drop.status == .waiting)
        #expect(drop.reason.hasPrefix("after: background: waits for the background steps 1.0/old-backfill, 2.0/backfill to complete"))
        #expect(waiting.waitingForBackground.map(\.background) == [["1.0/old-backfill", "2.0/backfill"]])

        #expect(try await fixture.run(manifest, to: "2.0") { $0.phase = .background }.outcome == .succeeded)
        let due = try await Runner(store: fixture.store, options: contract).plan(manifest, to: Version("2.0"))
        #expect(due.pending.map(\.id) == ["2.0/drop"])
        #expect(due.waitingForBackground.isEmpty)
        #expect(try await fixture.run(manifest, to: "2.0") { $0.phase = .contract }.outcome == .succeeded)
        #expect(fixture.ran.suffix(3) == ["1.0/old-backfill", "2.0/backfill", "2.0/drop"])
    }
}
