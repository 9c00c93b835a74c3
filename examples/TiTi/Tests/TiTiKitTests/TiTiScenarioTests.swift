import Foundation
import Milepost
import MilepostTesting
import Testing
import TiTiKit

/// The manifest and sample data TiTi ships, upgraded in `MilepostTesting` scenarios: what users of
/// each release get, and a launch killed mid-upgrade.
@Suite struct TiTiScenarioTests {
    /// A scenario on copies of `Sample/milepost.yaml` and `Sample/dailys.json`, its directory the
    /// data directory the steps are given, as the app gives them its own.
    func scenario(seededAt version: Version? = nil) async throws -> UpgradeScenario {
        try await UpgradeScenario(
            manifestFile: TiTiFixture.sample + "/milepost.yaml", copying: [TiTiFixture.sample + "/dailys.json"], seededAt: version
        ) { directory in
            TiTiLaunch.registry(for: DailyFile(inDataDirectory: directory))
        }
    }

    func dailys(in scenario: UpgradeScenario) throws -> [Daily] {
        try DailyFile(inDataDirectory: scenario.directory).load()
    }

    @Test func usersOf21GetOnlyTheRunawayCapIn27() async throws {
        let scenario = try await scenario(seededAt: Version("2.1"))
        let result = try await scenario.run(to: Version("2.7"))
        #expect(result.ran == ["2.7/capRunawayDailys"])
        let dailys = try dailys(in: scenario)
        #expect(dailys.filter(\.isEmpty).count == 3)  // 2.1's step is not run again: those users had it
        #expect(dailys.map(\.totalTime).max() == 57_600)
    }

    @Test func aLaunchKilledDuringTheCapIsFinishedByTheNextLaunch() async throws {
        let scenario = try await scenario()
        let killed = try await scenario.run(to: Version("2.7"), interruptingAt: "2.7/capRunawayDailys")
        #expect(killed.ran == [])  // 2.1/removeEmptyDailys waits for the background run
        #expect(killed.state?.inProgress?.id == "2.7/capRunawayDailys")
        #expect(try dailys(in: scenario).map(\.totalTime).max() == 93_600)

        // capRunawayDailys is idempotent: the next launch runs it again and finishes the upgrade.
        let next = try await scenario.run(to: Version("2.7"))
        #expect(next.report.outcome == .succeeded)
        #expect(next.ran == ["2.7/capRunawayDailys"])
        #expect(try dailys(in: scenario).map(\.totalTime) == [5_400, 0, 7_260, 0, 57_600, 0, 1_800])
        #expect(next.state?.version == Version("2.7"))
        #expect(next.report.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])
    }

    @Test func aBackgroundRunStoppedInRemoveEmptyDailysIsFinishedByTheNextOne() async throws {
        let scenario = try await scenario()
        var background = RunOptions()
        background.phase = .background
        _ = try await scenario.run(to: Version("2.1"))
        let stopped = try await scenario.run(to: Version("2.1"), interruptingAt: "2.1/removeEmptyDailys", options: background)
        #expect(stopped.report.outcome == .interrupted)
        #expect(stopped.state?.inProgress?.id == "2.1/removeEmptyDailys")
        #expect(try dailys(in: scenario).filter(\.isEmpty).count == 3)

        // A launch is not held by it; the next background run finishes it.
        #expect(try await scenario.run(to: Version("2.1")).report.outcome == .upToDate)
        let next = try await scenario.run(to: Version("2.1"), options: background)
        #expect(next.report.outcome == .succeeded)
        #expect(next.ran == ["2.1/removeEmptyDailys"])
        #expect(try dailys(in: scenario).map(\.totalTime) == [5_400, 7_260, 93_600, 1_800])
        #expect(next.state?.inProgress == nil)
    }

    /// Users of 2.0 and of 2.1 end, after 2.7's runs, where a new user of 2.7 starts: no empty
    /// daily and no day over the cap (a new user has no dailys at all), nothing owed.
    @Test func usersOf20And21EndWhereANew27UserStarts() async throws {
        let paths = UpgradePaths(manifestFile: TiTiFixture.sample + "/milepost.yaml", copying: [TiTiFixture.sample + "/dailys.json"]) {
            TiTiLaunch.registry(for: DailyFile(inDataDirectory: $0))
        }
        try await paths.verify(from: ["2.0", "2.1"], to: "2.7", options: TiTiLaunch.runOptions(phase: .background)) { scenario, installedAt in
            let file = DailyFile(inDataDirectory: scenario.directory)
            if installedAt == nil {
                try FileManager.default.removeItem(atPath: file.path)  // a new user has no dailys
            } else if installedAt == "2.1" {
                try file.save(try file.load().filter { !$0.isEmpty })  // 2.1 removed the empty ones
            }  // the sample is 2.0's data
        } appState: { scenario in
            let file = DailyFile(inDataDirectory: scenario.directory)
            let dailys = FileManager.default.fileExists(atPath: file.path) ? try file.load() : []
            return [dailys.count(where: \.isEmpty), dailys.count { $0.totalTime > 57_600 }]
        }
    }

    /// Every commit point of the upgrades from 2.0 and 2.1 to 2.7 (the launch's and the background
    /// run's steps in one run; from 2.0, `removeEmptyDailys` in batches of 2 so that it commits
    /// several cursors, then `capRunawayDailys`): the run stopped there as a crash would, the
    /// store reopened from disk, the next run resuming with the app's policy (`.retry`) ends with
    /// the very dailys of the uninterrupted upgrade.
    @Test func removeEmptyDailysAndTheCapPassEveryInterruption() async throws {
        let shipped = try String(contentsOfFile: TiTiFixture.sample + "/milepost.yaml", encoding: .utf8)
        let manifest = shipped.replacingOccurrences(of: "phase: background}", with: "phase: background, with: {batch: 2}}")
        try #require(manifest != shipped)
        let paths = UpgradePaths(manifest: manifest) { TiTiLaunch.registry(for: DailyFile(inDataDirectory: $0)) }
        let tested = try await paths.interruptions(
            from: ["2.0", "2.1"], to: "2.7", options: TiTiLaunch.runOptions(phase: .background)
        ) { scenario, installedAt in
            guard let installedAt else { return }  // a new user has no dailys
            let file = DailyFile(inDataDirectory: scenario.directory)
            try FileManager.default.copyItem(atPath: TiTiFixture.sample + "/dailys.json", toPath: file.path)
            if installedAt == "2.1" { try file.save(try file.load().filter { !$0.isEmpty }) }  // 2.1 removed the empty ones
        } appState: { scenario in
            let file = DailyFile(inDataDirectory: scenario.directory)
            return FileManager.default.fileExists(atPath: file.path) ? try file.load() : []
        }
        for path in tested {
            let cursors = path.points.filter { $0.kind == .cursor && $0.step == "2.1/removeEmptyDailys" }
            // Users of 2.1 had its cleanup: their upgrade runs the cap alone.
            #expect(cursors.count == (path.from == "2.0" ? 4 : 0), "\(path.points)")
            #expect(path.points.contains { $0.step == "2.7/capRunawayDailys" })
            #expect(path.trials.count == CrashPoint.trials(in: path.points).count)  // every crash point tried
            for trial in path.trials {
                #expect(trial.reached && trial.agrees, "from \(path.from): \(trial.findings.map(\.description))")
            }
        }
    }
}
