import Foundation
import Milepost
import Testing
import TiTiKit

/// The app mode at launch: a new user (no store, no legacy version, no `dailys.json`) is a fresh
/// install that records its version and runs nothing; a 2.0 user (`dailys.json`, no version) is an
/// upgrade from the manifest's baseline.
@Suite struct TiTiFreshInstallTests {
    @Test func aFreshInstallRecordsTheVersionAndRunsNothing() async throws {
        let fixture = try TiTiFixture()
        try FileManager.default.removeItem(atPath: fixture.dailyFile.path)

        let started = try await fixture.launch.start(at: "2.7")
        #expect(started.report.outcome == .succeeded)
        #expect(started.report.steps.isEmpty)
        #expect(started.report.plan?.pending.isEmpty == true)
        #expect(started.report.plan?.waiting.isEmpty == true)  // nor is 2.1's cleanup left for later
        #expect(started.whatsNew == nil)
        let state = try #require(try await fixture.launch.store.readState())
        #expect(state.version == "2.7")
        #expect(state.completed.isEmpty)
        let journal = try await fixture.launch.store.readJournal()
        #expect(journal.map(\.event) == [.runStarted, .baseline, .runFinished])
        #expect(journal.filter { $0.event == .baseline }.map(\.to) == ["2.7"])
        #expect(!FileManager.default.fileExists(atPath: fixture.dailyFile.path))

        // The background run finds nothing to do either, and the next launch is up to date.
        let background = try await fixture.launch.runBackgroundSteps(at: "2.7")
        #expect(background.outcome == .upToDate)
        #expect(background.steps.isEmpty)
        #expect(try await fixture.launch.start(at: "2.7").report.outcome == .upToDate)
    }

    @Test func dailysWithoutAVersionAreA20InstallThatUpgrades() async throws {
        let fixture = try TiTiFixture()
        let started = try await fixture.launch.start(at: "2.7")
        #expect(started.report.outcome == .succeeded)
        #expect(started.report.from == "2.0")
        #expect(started.report.steps.map(\.id) == ["2.7/capRunawayDailys"])
        #expect(started.report.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])
        let journal = try await fixture.launch.store.readJournal()
        #expect(journal.first?.event == .baseline)
        #expect(journal.first?.to == "2.0")
        #expect(try fixture.dailys().map(\.totalTime).max() == 57_600)
    }
}
