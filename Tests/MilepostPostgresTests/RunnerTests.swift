import Foundation
import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// The runner's behaviour through the library, on every store kind (`StoreKind.available`: the
/// file and SQLite stores always, PostgreSQL and MariaDB with their test servers): the run as a
/// session over its store, the same outcomes, states and journals whatever the store.
@Suite struct RunnerTests {
    static let upgrade = RunnerFixture.upgrade

    /// A runner fixture over a fresh store of `kind`, removed with the fixture.
    static func fixture(_ kind: StoreKind) throws -> RunnerFixture {
        let store = try kind.make()
        return try RunnerFixture(store: store.store, keeping: store)
    }

    @Test(arguments: StoreKind.available)
    func upgradesRunEveryStepExactlyOnce(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest(Self.upgrade)

        let first = try await fixture.run(manifest, to: "2.1")
        #expect(first.outcome == .succeeded)
        #expect(first.from == Version("2.0"))
        #expect(fixture.ran == ["2.1/note", "2.1/second"])
        #expect(try await fixture.state()?.version.text == "2.1")

        fixture.clearCalls()
        let again = try await fixture.run(manifest, to: "2.1")
        #expect(again.outcome == .upToDate)
        #expect(again.run == nil)
        #expect(fixture.ran == [])

        let toThree = try await fixture.run(manifest, to: "3.0")
        #expect(toThree.outcome == .succeeded)
        #expect(fixture.ran == ["2.10/note", "3.0/note"])
        let state = try #require(try await fixture.state())
        #expect(state.version.text == "3.0")
        #expect(state.app == "titi")
        #expect(state.completed.map(\.id) == ["2.1/note", "2.1/second", "2.10/note", "3.0/note"])
        #expect(state.inProgress == nil && state.failed == nil)
    }

    /// With `manifestInputs`, an unchanged manifest is not loaded; without, it is loaded and its
    /// digest decides. A changed file is loaded and planned either way.
    @Test(arguments: StoreKind.available)
    func fastPathDoesNotReadTheManifestWhoseDigestIsStored(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest(Self.upgrade)
        _ = try await fixture.run(manifest, to: "2.1")
        let inputs = ManifestInputs(path: manifest.source.path)
        for options in [Optional(inputs), nil] {
            var loaded = false
            let report = try await fixture.runner { $0.manifestInputs = options }.run(to: Version("2.1.0")) {
                loaded = true
                return manifest
            }
            #expect(report.outcome == .upToDate)
            #expect(loaded == (options == nil))
        }
        try (Self.upgrade + "\n# changed\n").write(toFile: manifest.source.path, atomically: false, encoding: .utf8)
        var loaded = false
        let report = try await fixture.runner { $0.manifestInputs = inputs }.run(to: Version("2.1.0")) {
            loaded = true
            return try fixture.manifest(Self.upgrade + "\n# changed\n")
        }
        #expect(report.outcome == .upToDate)
        #expect(loaded)
    }

    @Test(arguments: StoreKind.available)
    func aFailureAtThreeOfFiveResumesAtThree(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest("""
            migrations:
              1: [breakable]
              2: [breakable]
              3: [breakable]
              4: [breakable]
              5: [breakable]
            """)
        fixture.breakSteps(["3/breakable"])
        let failed = try await fixture.run(manifest, to: "5")
        #expect(failed.outcome == .failed)
        #expect(fixture.ran == ["1/breakable", "2/breakable", "3/breakable"])
        #expect(failed.steps.last?.error == "3/breakable is broken")
        var state = try #require(try await fixture.state())
        #expect(state.version.text == "0")
        #expect(state.completed.map(\.id) == ["1/breakable", "2/breakable"])
        #expect(state.failed?.id == "3/breakable")
        #expect(state.inProgress == nil)

        fixture.clearCalls()
        fixture.breakSteps([])
        let resumed = try await fixture.run(manifest, to: "5")
        #expect(resumed.outcome == .succeeded)
        #expect(fixture.ran == ["3/breakable", "4/breakable", "5/breakable"])
        state = try #require(try await fixture.state())
        #expect(state.version.text == "5")
        #expect(state.failed == nil)
    }

    @Test(arguments: StoreKind.available)
    func retriesRunAgainAndTimeoutsFail(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest("""
            migrations:
              1:
                - name: flaky
                  retries: 2
                  with: {failures: 2}
              2:
                - name: sleep
                  timeout: 100ms
                  with: {duration: 10s}
            """)
        let report = try await fixture.run(manifest, to: "2") { $0.terminationGrace = .seconds(5) }
        #expect(fixture.ran == ["1/flaky", "1/flaky#2", "1/flaky#3", "2/sleep"])
        #expect(report.outcome == .failed)
        #expect(report.steps.map(\.attempts) == [3, 1])
        #expect(report.steps.last?.error == "timed out after 100ms")
        let events = try await fixture.journal().map { "\($0.event.rawValue) \($0.step ?? "")" }
        #expect(events == [
            "run-started ", "step-started 1/flaky", "step-failed 1/flaky", "step-started 1/flaky", "step-failed 1/flaky",
            "step-started 1/flaky", "step-succeeded 1/flaky", "step-started 2/sleep", "step-failed 2/sleep",
            "run-finished 2/sleep",
        ])
    }

    @Test(arguments: StoreKind.available)
    func downgradeIsRefusedUnlessAllowed(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest(Self.upgrade)
        _ = try await fixture.run(manifest, to: "3.0")
        fixture.clearCalls()
        let refused = try await fixture.run(manifest, to: "2.1")
        #expect(refused.outcome == .downgradeRefused)
        let allowed = try await fixture.run(manifest, to: "2.1") { $0.allowDowngrade = true }
        #expect(allowed.outcome == .downgradeAllowed)
        #expect(fixture.ran == [])
        #expect(try await fixture.state()?.version.text == "3.0")
        let outcomes = try await fixture.journal().compactMap(\.outcome?.rawValue).suffix(2)
        #expect(Array(outcomes) == ["downgrade-refused", "downgrade-allowed"])
    }

    @Test(arguments: StoreKind.available)
    func baselineSkipsStepsAtOrBelowIt(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest(Self.upgrade)
        let runner = fixture.runner()
        _ = try await runner.maintenance.baseline(Version("2.1"))
        await #expect(throws: StoreMaintenance.MaintenanceError.stateExists(version: "2.1")) {
            try await runner.maintenance.baseline(Version("2.5"))
        }
        let report = try await fixture.run(manifest, to: "3.0")
        #expect(report.from == Version("2.1"))
        #expect(fixture.ran == ["2.10/note", "3.0/note"])
        let plan = try await runner.plan(manifest, to: Version("3.0"))
        #expect(plan.entries.map(\.status) == [.skipped, .skipped, .completed, .completed])
        _ = try await runner.maintenance.baseline(Version("4"), force: true)
        #expect(try await fixture.state()?.version.text == "4")
        #expect(try await fixture.journal().filter { $0.event == .baseline }.map(\.to) == ["2.1", "4"])
    }

    @Test(arguments: StoreKind.available)
    func aManifestBaselineIsTheStartWhenNothingIsStored(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest(Self.upgrade)
        let plan = try await fixture.runner().plan(manifest, to: Version("2.1"))
        #expect(plan.origin == .baseline)
        #expect(plan.from == Version("2.0"))
        #expect(plan.pending.map(\.id) == ["2.1/note", "2.1/second"])
        #expect(plan.entries.map(\.status) == [.pending, .pending, .aboveTarget, .aboveTarget])
    }

    @Test(arguments: StoreKind.available)
    func planAndDryRunWriteNothing(_ kind: StoreKind) async throws {
        let store = try kind.make()
        let fixture = try RunnerFixture(store: store.store, keeping: store)
        let manifest = try fixture.manifest(Self.upgrade)
        _ = try await fixture.runner().plan(manifest, to: Version("3.0"))
        let dry = try await fixture.run(manifest, to: "3.0") { $0.dryRun = true }
        _ = try await fixture.runner().status(manifest: manifest, to: Version("3.0"))
        #expect(dry.outcome == .dryRun)
        #expect(dry.plan?.pending.count == 4)
        #expect(fixture.ran == [])
        #expect(try await store.isUntouched())

        _ = try await fixture.run(manifest, to: "2.1")
        let (state, journal) = (try await fixture.state(), try await fixture.journal())
        _ = try await fixture.run(manifest, to: "3.0") { $0.dryRun = true }
        _ = try await fixture.runner().plan(manifest, to: Version("3.0"))
        _ = try await fixture.runner().status(manifest: manifest, to: Version("3.0"))
        #expect(try await fixture.state() == state)
        #expect(try await fixture.journal() == journal)
    }

    @Test(arguments: StoreKind.available)
    func cancellationInterruptsTheCurrentStepAndStartsNoOther(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        let manifest = try fixture.manifest("""
            migrations:
              1:
                - name: sleep
                  with: {duration: 30s}
              2: [note]
            """)
        let task = Task { try await fixture.run(manifest, to: "2") }
        try await waitUntil { fixture.ran == ["1/sleep"] }
        task.cancel()
        let report = try await task.value
        #expect(report.outcome == .interrupted)
        #expect(fixture.ran == ["1/sleep"])
        let state = try #require(try await fixture.state())
        #expect(state.inProgress?.id == "1/sleep")
        #expect(try await fixture.journal().suffix(2).map(\.event) == [.stepInterrupted, .runFinished])
        #expect(try await fixture.store.lockHolder() == nil)
        let next = try await fixture.run(manifest, to: "2")
        #expect(next.outcome == .blocked)
    }

    @Test(arguments: StoreKind.available)
    func stepsSeeTheirContext(_ kind: StoreKind) async throws {
        let fixture = try Self.fixture(kind)
        var registry = StepRegistry()
        struct Seen: Sendable, Equatable { var id, name, threshold, from, to: String; var attempt: Int; var directory: String }
        let seen = Mutex<[Seen]>([])
        registry.register("look") { context in
            seen.withLock {
                $0.append(Seen(id: context.id, name: context.name, threshold: context.threshold.text, from: context.from.text,
                               to: context.to.text, attempt: context.attempt, directory: context.manifestDirectory))
            }
        }
        let path = try fixture.writeManifest("migrations:\n  2.10:\n    - name: look\n      id: peek\n")
        let manifest = try Manifest.load(path: path, registry: registry)
        _ = try await fixture.runner().run(to: Version("v3")) { manifest }
        #expect(seen.withLock { $0 } == [Seen(id: "2.10/peek", name: "look", threshold: "2.10", from: "0", to: "v3", attempt: 1,
                                             directory: fixture.scratch.root)])
        #expect(try await fixture.state()?.version.text == "v3")
    }

    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }
}
