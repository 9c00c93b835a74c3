import Foundation
import Milepost
import Testing
import TiTiKit

/// TiTi starting at 2.1, its background run, again at 2.1, then at 2.7, on the sample data.
@Suite struct TiTiUpgradeTests {
    static let sampleDates = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08"]
    static let nonEmptyDates = ["2026-03-02", "2026-03-04", "2026-03-06", "2026-03-08"]

    @Test func theSampleHasEmptyDailysAndARunawayDay() throws {
        let fixture = try TiTiFixture()
        let dailys = try fixture.dailys()
        #expect(dailys.map(\.date) == Self.sampleDates)
        #expect(dailys.filter(\.isEmpty).count == 3)
        #expect(dailys.map(\.totalTime).max() == 93_600)
    }

    @Test func version21RemovesExactlyTheEmptyDailysOnceInTheBackground() async throws {
        let fixture = try TiTiFixture()
        let before = try fixture.dailys()
        let original = try fixture.dataBytes()

        // The launch reaches 2.1 and leaves removeEmptyDailys to the background run.
        let launch = try await fixture.launch.migrate(to: Version("2.1"))
        #expect(launch.outcome == .succeeded)
        #expect(launch.steps.isEmpty)
        #expect(launch.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])
        #expect(try fixture.dataBytes() == original)
        #expect(try await fixture.launch.store.readState()?.version.text == "2.1")

        let first = try await fixture.launch.runBackgroundSteps(at: Version("2.1"))
        #expect(first.outcome == .succeeded)
        #expect(first.steps.map(\.id) == ["2.1/removeEmptyDailys"])
        #expect(try fixture.dailys() == before.filter { !$0.isEmpty })
        #expect(try fixture.dailys().map(\.date) == Self.nonEmptyDates)

        // The second start and the second background run change nothing, even when a new empty
        // daily appeared in between.
        var dailys = try fixture.dailys()
        dailys.append(Daily(date: "2026-03-09", totalTime: 0))
        try fixture.dailyFile.save(dailys)
        let bytes = try fixture.dataBytes()
        let second = try await fixture.launch.migrate(to: Version("2.1"))
        #expect(second.outcome == .upToDate)
        #expect(second.steps.isEmpty)
        let secondBackground = try await fixture.launch.runBackgroundSteps(at: Version("2.1"))
        #expect(secondBackground.outcome == .upToDate)
        #expect(secondBackground.steps.isEmpty)
        #expect(try fixture.dataBytes() == bytes)
    }

    @Test func version27RunsOnlyTheNewStep() async throws {
        let fixture = try TiTiFixture()
        _ = try await fixture.launch.migrate(to: Version("2.1"))
        _ = try await fixture.launch.runBackgroundSteps(at: Version("2.1"))
        var dailys = try fixture.dailys()
        dailys.append(Daily(date: "2026-03-09", totalTime: 0))
        try fixture.dailyFile.save(dailys)

        let report = try await fixture.launch.migrate(to: Version("2.7"))
        #expect(report.outcome == .succeeded)
        #expect((report.from.text, report.to.text) == ("2.1", "2.7"))
        #expect(report.steps.map(\.id) == ["2.7/capRunawayDailys"])
        #expect(report.plan?.waiting.isEmpty == true)
        #expect(try await fixture.launch.runBackgroundSteps(at: Version("2.7")).steps.isEmpty)
        let after = try fixture.dailys()
        #expect(after.map(\.date) == Self.nonEmptyDates + ["2026-03-09"])
        #expect(after.map(\.totalTime) == [5_400, 7_260, 57_600, 1_800, 0])
        let state = try #require(try await fixture.launch.store.readState())
        #expect(state.version.text == "2.7")
        #expect(state.completed.map(\.id) == ["2.1/removeEmptyDailys", "2.7/capRunawayDailys"])
    }

    @Test func anUpgradeFrom20To27RemovesTheEmptyDailysInThe27BackgroundRun() async throws {
        let fixture = try TiTiFixture()
        let launch = try await fixture.launch.migrate(to: Version("2.7"))
        #expect(launch.steps.map(\.id) == ["2.7/capRunawayDailys"])
        #expect(launch.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])
        #expect(try fixture.dailys().filter(\.isEmpty).count == 3)

        // 2.1's background step is owed, not late: the launch passed it for its phase.
        let background = try await fixture.launch.runBackgroundSteps(at: Version("2.7"))
        #expect(background.outcome == .succeeded)
        #expect(background.steps.map(\.id) == ["2.1/removeEmptyDailys"])
        #expect(try fixture.dailys().map(\.date) == Self.nonEmptyDates)
        #expect(try fixture.dailys().map(\.totalTime) == [5_400, 7_260, 57_600, 1_800])
        #expect(try await fixture.launch.store.readState()?.completed.map(\.id) == ["2.7/capRunawayDailys", "2.1/removeEmptyDailys"])
    }

    @Test func aLegacyLastUpdateVersionOf21SkipsThe21Step() async throws {
        let fixture = try TiTiFixture()
        try fixture.writeLegacyDefaults(["lastUpdateVersion": "2.1"])
        let bytes = try fixture.dataBytes()

        let plan = try await Runner(store: fixture.launch.store)
            .plan(try Manifest.load(path: fixture.manifest, registry: fixture.launch.registry), to: Version("2.7"))
        #expect(plan.origin == .stored)
        #expect(plan.entries.map { "\($0.step.id) \($0.status.rawValue)" } == ["2.1/removeEmptyDailys skipped", "2.7/capRunawayDailys pending"])

        let atSameVersion = try await fixture.launch.migrate(to: Version("2.1"))
        #expect(atSameVersion.outcome == .upToDate)
        #expect(try fixture.dataBytes() == bytes)

        let report = try await fixture.launch.migrate(to: Version("2.7"))
        #expect(report.steps.map(\.id) == ["2.7/capRunawayDailys"])
        #expect(report.plan?.waiting.isEmpty == true)
        // The old code already removed them: the background run does not either.
        let background = try await fixture.launch.runBackgroundSteps(at: Version("2.7"))
        #expect(background.outcome == .upToDate)
        #expect(background.steps.isEmpty)
        #expect(try fixture.dailys().filter(\.isEmpty).count == 3)
        #expect(try await fixture.launch.store.readState()?.version.text == "2.7")
    }

    @Test func legacyDefaultsWithoutTheKeyMigrateFromTheBaseline() async throws {
        let fixture = try TiTiFixture()
        try fixture.writeLegacyDefaults(["theme": "dark"])
        let report = try await fixture.launch.migrate(to: Version("2.1"))
        #expect(report.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])
        let background = try await fixture.launch.runBackgroundSteps(at: Version("2.1"))
        #expect(background.steps.map(\.id) == ["2.1/removeEmptyDailys"])
        #expect(try fixture.dailys().filter(\.isEmpty).isEmpty)
    }

    @Test func unreadableLegacyDefaultsStopTheStart() async throws {
        let fixture = try TiTiFixture()
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: fixture.legacyDefaults.path))
        await #expect {
            _ = try await fixture.launch.migrate(to: Version("2.1"))
        } throws: { error in
            if case StoreError.unreadableState(let location, _) = error { return location == fixture.legacyDefaults.path }
            return false
        }
        await #expect {
            _ = try await fixture.launch.runBackgroundSteps(at: Version("2.1"))
        } throws: { error in
            if case StoreError.unreadableState(let location, _) = error { return location == fixture.legacyDefaults.path }
            return false
        }
        #expect(try fixture.dailys().filter(\.isEmpty).count == 3)
    }
}
