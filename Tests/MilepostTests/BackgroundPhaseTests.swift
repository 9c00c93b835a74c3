import Foundation
import Milepost
import MilepostTestSupport
import Synchronization
import Testing

/// An application running its background steps itself after launch (`RunOptions.phase`): the
/// launch run leaves them waiting, a background run started later does them, and cancelling its
/// task (the app is suspended) keeps the cursor for the next one.
@Suite struct BackgroundPhaseTests {
    @Test func theLaunchRunLeavesTheBackgroundStepAndACancelledBackgroundRunResumesAtItsCursor() async throws {
        let fixture = try RunnerFixture()
        let units = RunnerFixture.Units(100, pauseAfter: 40)
        var registry = RunnerFixture.registry(recording: fixture.recorder)
        registry.register("removeEmptyDailys", resumable: true, units.body)
        let manifest = try fixture.manifest("""
            migrations:
              "2.1":
                - note
                - {name: removeEmptyDailys, phase: background}
            """, registry: registry)

        let launch = try await fixture.run(manifest, to: "2.1")
        #expect(launch.outcome == .succeeded)
        #expect(fixture.ran == ["2.1/note"])
        #expect(units.done.withLock { $0 }.isEmpty)
        #expect(launch.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])

        let background = Task { try await fixture.run(manifest, to: "2.1") { $0.phase = .background } }
        while units.done.withLock({ $0.count }) < 40 { try await Task.sleep(for: .milliseconds(10)) }
        background.cancel()
        let suspended = try await background.value
        #expect(suspended.outcome == .interrupted)
        let mark = try #require(try await fixture.state()?.inProgress)
        #expect(mark.cursor == "40")
        #expect(mark.phase == .background)
        // The next launch is not held by it; readiness for the release ignores it.
        #expect(try await fixture.run(manifest, to: "2.1").outcome == .upToDate)
        #expect(Readiness(try await fixture.state(), for: Version("2.1")) == .ready)
        #expect(Readiness(try await fixture.state(), for: Version("2.1"), phase: .background) != .ready)

        units.paused.withLock { $0 = false }
        let resumed = try await fixture.run(manifest, to: "2.1") { $0.phase = .background }
        #expect(resumed.outcome == .succeeded)
        #expect(units.done.withLock { $0 } == Array(1...100))
        #expect(try await fixture.state()?.completed.map(\.id) == ["2.1/note", "2.1/removeEmptyDailys"])
        #expect(fixture.ran == ["2.1/note"])
    }
}
