import Foundation
import Milepost
import Testing

/// The version-history queries on every store, from real runs and baselines.
@Suite(.enabled(if: TestServer.isConfigured, TestServer.missing))
struct VersionHistoryTests {
    struct Fail: Error {}

    static func manifest() throws -> Manifest {
        var registry = StepRegistry.standard
        registry.register("note") { _ in }
        registry.register("fail") { _ in throw Fail() }
        return try Manifest.parse(ManifestSource(path: "/tmp/milepost.yaml", bytes: Array("""
            app: shop
            migrations:
              "2.6": [note]
              "2.7": [{name: note, id: second}]
              "2.8": [fail]
            """.utf8)), registry: registry)
    }

    @Test(arguments: StoreKind.allCases)
    func aFreshStoreHasNoHistoryAndEveryVersionIsAFirstLaunch(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let history = try await fixture.store.versionHistory()
        #expect(history.reached == [])
        #expect(history.currentVersion == nil && history.previousVersion == nil && history.firstInstalledVersion == nil)
        #expect(history.isFirstLaunch(of: Version("2.6")))
        #expect(try await fixture.isUntouched())
    }

    @Test(arguments: StoreKind.allCases)
    func runsAndBaselinesAreTheVersionsReached(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let manifest = try Self.manifest()
        let runner = Runner(store: fixture.store)

        #expect(try await runner.run(to: Version("2.6")) { manifest }.outcome == .succeeded)
        var history = try await fixture.reopen().versionHistory()
        #expect(history.firstInstalledVersion == "2.6")
        #expect(history.previousVersion == nil)
        #expect(!history.isFirstLaunch(of: Version("2.6.0")))
        #expect(history.isFirstLaunch(of: Version("2.7")))

        #expect(try await runner.run(to: Version("2.7")) { manifest }.outcome == .succeeded)
        #expect(try await runner.run(to: Version("2.7")) { manifest }.outcome == .upToDate)
        #expect(try await runner.run(to: Version("2.8")) { manifest }.outcome == .failed)
        #expect(try await runner.run(to: Version("2.5")) { manifest }.outcome == .downgradeRefused)
        history = try await fixture.reopen().versionHistory()
        #expect(history.reached.map(\.version) == ["2.6", "2.7"])
        #expect(history.reached.map(\.source) == [.run, .run])
        #expect(history.currentVersion == "2.7" && history.previousVersion == "2.6")
        #expect(!history.isFirstLaunch(of: Version("2.7")))
        #expect(history.isFirstLaunch(of: Version("2.8")))

        // Each entry carries the time and run of the record that reached it.
        let finished = try await fixture.store.readJournal().filter { $0.event == .runFinished && $0.outcome == .succeeded }
        #expect(history.reached.map(\.at) == finished.map(\.time))
        #expect(history.reached.map(\.run) == finished.map(\.run))

        _ = try await runner.maintenance.baseline(Version("3.0"), force: true)
        history = try await fixture.reopen().versionHistory()
        #expect(history.reached.map(\.version) == ["2.6", "2.7", "3.0"])
        #expect(history.reached.last?.source == .baseline)
        #expect(history.previousVersion == "2.7" && history.firstInstalledVersion == "2.6")
    }

    @Test(arguments: StoreKind.allCases)
    func aStateWithoutJournalIsItsOwnHistory(kind: StoreKind) async throws {
        let fixture = try kind.make()
        let locked = try await fixture.store.lock(timeout: .zero, holder: TestServer.holder(run: "run-a"))
        try await locked.commit(ConformanceStore.state, journal: [])
        await locked.release()
        let history = try await fixture.reopen().versionHistory()
        #expect(history.reached == [
            .init(version: "2.1.0", at: ConformanceStore.state.updatedAt, run: nil, source: .state)
        ])
        #expect(history.firstInstalledVersion == "2.1.0" && history.previousVersion == nil)
    }
}
