import Foundation
import Synchronization
import Milepost
import MilepostTestSupport
import MilepostTesting
import Testing

/// What a run looks like on the file store (its journal's lines) and the testing kit's
/// interruptions (`UpgradeScenario`, whose store is a file store); the runner's behaviour on every
/// store kind is `RunnerTests` (MilepostPostgresTests).
@Suite struct RunnerFileStoreTests {
    static let upgrade = RunnerFixture.upgrade

    @Test func journalRecordsEveryEventAsOneJSONLine() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.upgrade)
        _ = try await fixture.run(manifest, to: "2.1")
        let text = try String(contentsOfFile: fixture.scratch.directory + "/journal.jsonl", encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(text.hasSuffix("\n"))
        #expect(lines.count == 6)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let time = try #require(object["time"] as? String)
            #expect(time.count == 24 && time.hasSuffix("Z") && time.contains("."), "\(time)")
            #expect(object["run"] is String)
            #expect(object["host"] is String)
            #expect(object["pid"] is Int)
        }
        let records = try await fixture.journal()
        #expect(records.map(\.event) == [.runStarted, .stepStarted, .stepSucceeded, .stepStarted, .stepSucceeded, .runFinished])
        #expect(Set(records.map(\.run)).count == 1)
        #expect(records.first?.from == "2.0" && records.first?.to == "2.1")
        #expect(records.last?.outcome?.rawValue == "succeeded")
        #expect(records[2].durationMs != nil && records[2].attempt == 1)
    }

    @Test func anInterruptedStepBlocksUntilResolved() async throws {
        let fixture = try RunnerFixture()
        let scenario = try await UpgradeScenario(manifest: Self.upgrade, registry: fixture.registry)
        _ = try await scenario.run(to: Version("2.1"), interruptingAt: "2.1/second")
        #expect(fixture.ran == ["2.1/note"])
        fixture.clearCalls()

        let blocked = try await scenario.run(to: Version("2.1"))
        #expect(blocked.report.outcome == .blocked)
        #expect(blocked.report.interrupted?.id == "2.1/second")
        #expect(blocked.report.interrupted?.pid == getpid())
        #expect(fixture.ran == [])

        let runner = Runner(store: scenario.store)
        await #expect(throws: StoreMaintenance.MaintenanceError.self) { try await runner.maintenance.resolve("2.1/note", .retry) }
        _ = try await runner.maintenance.resolve("2.1/second", .done)
        let resumed = try await scenario.run(to: Version("2.1"))
        #expect(resumed.report.outcome == .succeeded)
        #expect(fixture.ran == [])
        #expect(resumed.state?.completed.last?.via == "resolved")
        #expect(try await scenario.store.readJournal().contains { $0.event == .resolved && $0.outcome?.rawValue == "done" })
    }

    @Test func resolveRetryRunsTheStepAgain() async throws {
        let fixture = try RunnerFixture()
        let scenario = try await UpgradeScenario(manifest: Self.upgrade, registry: fixture.registry)
        _ = try await scenario.run(to: Version("2.1"), interruptingAt: "2.1/second")
        fixture.clearCalls()
        _ = try await Runner(store: scenario.store).maintenance.resolve("2.1/second", .retry)
        let report = try await scenario.run(to: Version("2.1"))
        #expect(report.report.outcome == .succeeded)
        #expect(fixture.ran == ["2.1/second"])
    }

    @Test func anInterruptedIdempotentStepRunsAgain() async throws {
        let fixture = try RunnerFixture()
        let scenario = try await UpgradeScenario(manifest: """
            migrations:
              1:
                - name: sleepSafely
                  with: {duration: 1ms}
                - name: note
                  idempotent: true
            """, registry: fixture.registry)
        _ = try await scenario.run(to: Version("1"), interruptingAt: "1/note")
        fixture.clearCalls()
        let report = try await scenario.run(to: Version("1"))
        #expect(report.report.outcome == .succeeded)
        #expect(fixture.ran == ["1/note"])
    }
}
