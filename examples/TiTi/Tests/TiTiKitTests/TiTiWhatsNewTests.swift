import Foundation
import Milepost
import Testing
import TiTiKit

/// The "what's new in 2.7" notice: once, on the first launch of 2.7 after an upgrade.
@Suite struct TiTiWhatsNewTests {
    @Test func theFirstLaunchOf27AfterAnUpgradeShowsTheNoticeOnce() async throws {
        let fixture = try TiTiFixture()
        #expect(try await fixture.launch.start(at: Version("2.1")).whatsNew == nil)  // 2.1 brings no notice

        let first = try await fixture.launch.start(at: Version("2.7"))
        #expect(first.report.outcome == .succeeded)
        #expect(first.whatsNew == TiTiLaunch.whatsNew[Version("2.7")])
        #expect(first.whatsNew?.hasPrefix("What's new in 2.7") == true)
        // The notice is about the cap, done at launch; it does not wait for the background step.
        #expect(first.report.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])
        #expect(try fixture.dailys().map(\.totalTime).max() == 57_600)
        #expect(try fixture.dailys().filter(\.isEmpty).count == 3)

        // Nor does the background run bring it back.
        #expect(try await fixture.launch.runBackgroundSteps(at: Version("2.7")).outcome == .succeeded)
        let second = try await fixture.launch.start(at: Version("2.7"))
        #expect(second.report.outcome == .upToDate)
        #expect(second.whatsNew == nil)
    }

    @Test func aFreshInstallOf27ShowsNothing() async throws {
        let fixture = try TiTiFixture()
        try FileManager.default.removeItem(atPath: fixture.dailyFile.path)  // a new user has no dailys
        let started = try await fixture.launch.start(at: Version("2.7"))
        #expect(started.report.outcome == .succeeded)
        #expect(started.whatsNew == nil)
        #expect(try await fixture.launch.store.versionHistory().firstInstalledVersion == "2.7")
    }

    @Test func anUpgradeFromTheHandRolledCodeShowsTheNotice() async throws {
        let fixture = try TiTiFixture()
        try fixture.writeLegacyDefaults(["lastUpdateVersion": "2.1"])
        let started = try await fixture.launch.start(at: Version("2.7"))
        #expect(started.whatsNew == TiTiLaunch.whatsNew[Version("2.7")])
        let history = try await fixture.launch.store.versionHistory()
        #expect(history.reached.map(\.version) == ["2.7"])
    }
}
