import Foundation
import Milepost
import Testing
import TiTiKit

/// TiTi as an app embeds Milepost: the manifest ships in the app's bundle, apart from the user's
/// data, and the steps work on the data directory the app gives them; a launch that cannot finish
/// throws one error naming the step and its own error; one-line questions tell where the store is.
@Suite struct TiTiLaunchFailureTests {
    @Test func aFailedLaunchThrowsTheStepAndItsErrorAndTheNextLaunchFinishes() async throws {
        let fixture = try TiTiFixture()
        // The shipped manifest in a bundle directory of its own; the data directory holds only the data.
        let bundle = fixture.directory + "/TiTi.app"
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: fixture.manifest, toPath: bundle + "/milepost.yaml")
        let launch = TiTiLaunch(dataDirectory: fixture.directory, manifest: bundle + "/milepost.yaml", legacyDefaults: fixture.legacyDefaults)
        let manifest = try Manifest.load(path: launch.manifest, registry: launch.registry)
        let runner = Runner(store: launch.store, options: TiTiLaunch.runOptions(phase: .preStart))

        // A data file the cap cannot read: the launch throws, naming the step and the error it threw.
        let sample = try fixture.dataBytes()
        try Data("not json".utf8).write(to: URL(fileURLWithPath: fixture.dailyFile.path))
        let failure = try #require(await #expect(throws: RunFailure.self) { try await launch.start(at: "2.7") })
        #expect(failure.outcome == .failed)
        #expect(failure.step == "2.7/capRunawayDailys")
        #expect(failure.underlying is DecodingError)
        #expect(failure.description.hasPrefix("step 2.7/capRunawayDailys failed: "))
        #expect(try await runner.completedSteps(manifest) == [])
        #expect(try await runner.hasCompletedSteps(manifest, upTo: "2.7") == false)
        #expect(try await launch.store.readState()?.version == "2.0")  // recorded as a 2.0 install, not advanced

        // The data is readable again: the next launch finishes, and the store says so in one line each.
        try sample.write(to: URL(fileURLWithPath: fixture.dailyFile.path))
        let started = try await launch.start(at: "2.7")
        #expect(started.report.steps.map(\.id) == ["2.7/capRunawayDailys"])
        #expect(try fixture.dailys().map(\.totalTime).max() == 57_600)  // the data directory's file was capped
        #expect(try await runner.completedSteps(manifest) == ["2.7/capRunawayDailys"])
        #expect(try await runner.hasCompletedSteps(manifest, upTo: "2.7"))  // removeEmptyDailys waits for the background run
        #expect(try await runner.hasBeenSuperseded(for: "2.1"))  // TiTi keeps no floor: 2.1 may not start on 2.7's data
        #expect(try await runner.hasBeenSuperseded(for: "2.7") == false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bundle) == ["milepost.yaml"])
    }
}
