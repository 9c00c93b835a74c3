import Foundation
import Milepost
import MilepostTestSupport
import Testing

/// What an app embedding the library needs at launch: a fresh install that records its version
/// instead of running the fixes for older data (`FreshInstallPolicy.record`), and an interrupted
/// step retried on the next launch instead of blocking it forever (`InterruptedStepPolicy.retry`).
@Suite struct AppModeTests {
    static let manifest = """
        baseline: "2.0"
        migrations:
          "2.1": [{name: note, id: fix-2.0-data}]
          "2.2":
            - {name: note, id: seed, when: fresh-install}
            - {name: note, id: convert, when: upgrade}
        """

    @Test func aFreshInstallThatRecordsRunsOnlyTheFreshInstallStepsAndLaterRunsAreUpgrades() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.manifest, registry: fixture.registry)
        let first = try await fixture.run(manifest, to: "2.2") { $0.freshInstall = .record }
        #expect(first.outcome == .succeeded)
        #expect(fixture.ran == ["2.2/seed"])
        #expect(first.plan?.entries.first { $0.step.id == "2.1/fix-2.0-data" }?.status == .outOfScope)
        #expect(try await fixture.state()?.version == Version("2.2"))
        #expect(try await fixture.journal().contains { $0.event == .baseline && $0.to == "2.2" })

        // Nothing left behind: not pending, not late, whatever the next launch's policy.
        let again = try await fixture.run(manifest, to: "2.2")
        #expect(again.outcome == .upToDate)
        let plan = try await fixture.runner().plan(manifest, to: Version("2.2"))
        #expect(plan.pending.isEmpty && plan.late.isEmpty)
        fixture.clearCalls()
        let upgrade = try await fixture.run(
            try fixture.manifest(Self.manifest + "\n  \"2.3\": [{name: note, id: later}]\n", registry: fixture.registry), to: "2.3"
        ) { $0.freshInstall = .record }
        #expect(upgrade.outcome == .succeeded)
        #expect(fixture.ran == ["2.3/later"], "an upgrade runs its steps whatever the fresh-install policy")
    }

    @Test func theDefaultFreshInstallRunsEveryStep() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.manifest, registry: fixture.registry)
        #expect(try await fixture.run(manifest, to: "2.2").outcome == .succeeded)
        #expect(fixture.ran == ["2.1/fix-2.0-data", "2.2/seed"])
    }

    @Test func anInterruptedStepBlocksByDefaultAndRunsAgainUnderRetry() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest("migrations:\n  \"1\": [{name: note, id: a}]\n", registry: fixture.registry)
        // A launch killed mid-step leaves its mark, as a crash does.
        let locked = try await fixture.store.lock(timeout: .seconds(5), holder: LockHolder(pid: 1, host: "phone", since: Timestamp.now(), run: "r0"))
        try await locked.commit(
            StoredState(app: nil, version: Version("0"),
                        inProgress: InProgressStep(id: "1/a", run: "r0", since: Timestamp.now(), attempt: 1, host: "phone", pid: 1),
                        updatedAt: Timestamp.now()),
            journal: [])
        await locked.release()

        let blocked = try await fixture.run(manifest, to: "1")
        #expect(blocked.outcome == .blocked)
        #expect(blocked.interrupted?.id == "1/a")
        #expect(fixture.ran.isEmpty)

        let retried = try await fixture.run(manifest, to: "1") { $0.interruptedSteps = .retry }
        #expect(retried.outcome == .succeeded)
        #expect(fixture.ran == ["1/a"])
        #expect(try await fixture.state()?.inProgress == nil)
    }
}
