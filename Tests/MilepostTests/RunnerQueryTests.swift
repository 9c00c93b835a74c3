import Milepost
import MilepostTestSupport
import MilepostTesting
import Testing

/// The one-line questions (`completedSteps`, `hasCompletedSteps(_:upTo:)`, `hasBeenSuperseded(for:)`)
/// answer what `run`, `plan` and `status --check` do on the same store.
@Suite struct RunnerQueryTests {
    static let yaml = """
        baseline: "1.0"
        migrations:
          "2.0": [{name: note, id: expand}, {name: note, id: backfill, phase: background}]
          "2.5": [{name: note, id: fix, replaces: "2.5/old-fix"}]
          "3.0": [{name: note, id: drop, phase: contract}]
        """

    static var registry: StepRegistry {
        var registry = StepRegistry()
        registry.register("note") { _ in }
        return registry
    }

    @Test func completedAndPendingFollowTheRuns() async throws {
        let scenario = try await UpgradeScenario(manifest: Self.yaml, registry: Self.registry)
        let manifest = try scenario.manifest()
        let launch = Runner(store: scenario.store)
        var backgroundOptions = RunOptions()
        backgroundOptions.phase = .background
        let background = Runner(store: scenario.store, options: backgroundOptions)

        #expect(try await launch.completedSteps(manifest) == [])
        #expect(try await launch.hasCompletedSteps(manifest, upTo: "2.0") == false)

        try await launch.migrate(to: "2.0") { manifest }
        #expect(try await launch.completedSteps(manifest) == ["2.0/expand"])
        // The launch's rule (`status --check`): the background step does not hold 2.0 back; for
        // the background runner it is still owed.
        #expect(try await launch.hasCompletedSteps(manifest, upTo: "2.0"))
        #expect(try await background.hasCompletedSteps(manifest, upTo: "2.0") == false)
        #expect(try await launch.hasCompletedSteps(manifest, upTo: "2.5") == false)

        try await background.migrate(to: "2.0") { manifest }
        #expect(try await background.hasCompletedSteps(manifest, upTo: "2.0"))
        #expect(try await launch.completedSteps(manifest) == ["2.0/expand", "2.0/backfill"])
        // The same answers as `status --check` and the plan on this store.
        for target: Version in ["1.0", "2.0", "2.5", "3.0"] {
            #expect(try await launch.hasCompletedSteps(manifest, upTo: target) == (try await launch.status(manifest: manifest, to: target).isReady))
        }
        let plan = try await launch.plan(manifest, to: "3.0")
        #expect(try await launch.completedSteps(manifest) == plan.entries.filter { $0.status == .completed }.map(\.step.id))
    }

    /// A step that replaces a completed one is completed, as the planner says.
    @Test func aReplacingStepIsCompletedWhenTheOneItReplacesIs() async throws {
        let fixture = try RunnerFixture()
        let before = try fixture.manifest(
            Self.yaml.replacingOccurrences(of: "id: fix, replaces: \"2.5/old-fix\"", with: "id: old-fix"), registry: Self.registry)
        let runner = Runner(store: fixture.store)
        try await runner.migrate(to: "2.5") { before }
        #expect(try await runner.completedSteps(before) == ["2.0/expand", "2.5/old-fix"])
        let after = try fixture.manifest(Self.yaml, registry: Self.registry)
        #expect(try await runner.completedSteps(after) == ["2.0/expand", "2.5/fix"])
    }

    /// Whether `hasBeenSuperseded(for: release)` holds exactly when `run(to: release)` is refused.
    @Test(arguments: [
        // stored version, a contract run to (raises the floor), the release asking, superseded
        ("3.0", nil, "2.0", false),     // 3.0/drop waits: the floor is where the first run found the store, 2.0
        ("3.0", nil, "1.0", true),      // below that floor
        ("3.0", nil, "3.0", false),
        ("3.0", "3.0", "2.5", true),    // 3.0/drop ran: it made older releases incompatible
        ("3.0", "3.0", "3.0", false),
        ("2.5", nil, "3.0", false),     // newer than the store
    ] as [(String, String?, String, Bool)])
    func supersededIsWhatARunRefuses(stored: String, contract: String?, release: String, superseded: Bool) async throws {
        let (stored, release) = (try Version(parsing: stored), try Version(parsing: release))
        let scenario = try await UpgradeScenario(manifest: Self.yaml, registry: Self.registry, seededAt: "2.0")
        let runner = Runner(store: scenario.store)
        _ = try await scenario.run(to: stored)
        if let contract {
            var options = RunOptions()
            options.phase = .contract
            _ = try await scenario.run(to: try Version(parsing: contract), options: options)
        }
        let answer = try await runner.hasBeenSuperseded(for: release)
        let refused = try await runner.run(to: release) { try scenario.manifest() }.outcome == .downgradeRefused
        #expect(answer == refused)
        #expect(answer == superseded)
    }

    /// Without contract steps a store keeps no floor: any older release is refused, as `run` refuses it.
    @Test func withoutAFloorEveryOlderReleaseIsSuperseded() async throws {
        let scenario = try await UpgradeScenario(manifest: "migrations:\n  \"2.0\": [note]\n", registry: Self.registry)
        let runner = Runner(store: scenario.store)
        #expect(try await runner.hasBeenSuperseded(for: "1.0") == false)  // nothing stored
        try await runner.migrate(to: "2.0") { try scenario.manifest() }
        #expect(try await runner.hasBeenSuperseded(for: "1.0"))
        #expect(try await runner.hasBeenSuperseded(for: "2.0") == false)
        await #expect(throws: RunFailure.self) { try await runner.migrate(to: "1.0") { try scenario.manifest() } }
    }
}
