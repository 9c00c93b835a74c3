import Foundation
import Milepost
import Synchronization
import Testing
import TiTiKit

/// TiTi as the app runs it: `start(at:)` at launch leaves `removeEmptyDailys` to
/// `runBackgroundSteps(at:)`, which the app runs after launch in a task it cancels when it is
/// suspended; the next call resumes the step at its cursor.
@Suite struct TiTiBackgroundTests {
    /// 20,000 generated dailys in batches of 1,000: twenty saves of the file, each followed by a cursor.
    static let generatedCount = 20_000
    static let batch = 1_000
    /// The background task is cancelled once the step reports this many clean dailys.
    static let cancelAt = 4_000

    @Test func theLaunchLeavesTheDailysAloneAndACancelledBackgroundRunResumesAtItsCursor() async throws {
        let fixture = try TiTiFixture()
        let generated = GeneratedDailys.make(count: Self.generatedCount)
        let expected = generated.filter { !$0.isEmpty }
        try fixture.dailyFile.save(generated)
        let manifest = try String(contentsOfFile: fixture.manifest, encoding: .utf8)
        let batched = manifest.replacingOccurrences(
            of: "phase: background}", with: "phase: background, with: {batch: \(Self.batch)}}")
        #expect(batched != manifest)
        try batched.write(toFile: fixture.manifest, atomically: false, encoding: .utf8)
        let original = try fixture.dataBytes()
        let originalDate = try modificationDate(of: fixture.dailyFile.path)

        // The launch: 2.1 is reached, the step waits, dailys.json is not even rewritten.
        let started = try await fixture.launch.start(at: Version("2.1"))
        #expect(started.report.outcome == .succeeded)
        #expect(started.report.steps.isEmpty)
        #expect(started.report.plan?.waiting.map(\.step.id) == ["2.1/removeEmptyDailys"])
        #expect(try fixture.dataBytes() == original)
        #expect(try modificationDate(of: fixture.dailyFile.path) == originalDate)
        #expect(try await fixture.launch.store.readState()?.version.text == "2.1")

        // After launch, in a task the app cancels when it is suspended: cancelled here once a few
        // batches are saved and their cursor committed.
        let suspension = Suspension()
        let launch = fixture.launch
        let task = suspension.start {
            try await launch.runBackgroundSteps(at: Version("2.1")) { event in
                if case .stepProgress(_, let progress) = event, progress.completed >= Self.cancelAt {
                    suspension.suspend(at: progress.completed)
                }
            }
        }
        // The one failure channel: the run did not reach its end, so the call throws, naming the step.
        let suspended = try #require(await #expect(throws: RunFailure.self) { try await task.value })
        #expect(suspended.outcome == .interrupted)
        #expect(suspended.step == "2.1/removeEmptyDailys")
        #expect(suspended.underlying == nil)  // cancelled, not failed: the step threw nothing of its own
        let mark = try #require(try await fixture.launch.store.readState()?.inProgress)
        #expect(mark.id == "2.1/removeEmptyDailys")
        #expect(mark.phase == .background)
        let cursor = try #require(mark.cursor.flatMap { Int($0) })
        let reported = try #require(suspension.cancelledAt)
        #expect(cursor >= reported && cursor < expected.count, "cursor \(cursor), cancelled at \(reported)")
        // Clean up to the cursor, the empty dailys after it untouched.
        let midway = try fixture.dailys()
        #expect(Array(midway.prefix(cursor)) == Array(expected.prefix(cursor)))
        #expect(Array(midway.dropFirst(cursor)) == Array(generated.suffix(midway.count - cursor)))
        #expect(midway.dropFirst(cursor).contains { $0.isEmpty })

        // The next launch is not held by the step stopped mid-way, and leaves the file alone.
        let midwayBytes = try fixture.dataBytes()
        let relaunched = try await fixture.launch.start(at: Version("2.1"))
        #expect(relaunched.report.outcome == .upToDate)
        #expect(relaunched.whatsNew == nil)
        #expect(try fixture.dataBytes() == midwayBytes)
        let state = try await fixture.launch.store.readState()
        #expect(state?.inProgress?.cursor == String(cursor))
        #expect(Readiness(state, for: Version("2.1")) == .ready)
        #expect(Readiness(state, for: Version("2.1"), phase: .background) != .ready)

        // The next background run resumes at the cursor: nothing before it is examined again.
        let progress = Mutex<[Int]>([])
        let resumed = try await fixture.launch.runBackgroundSteps(at: Version("2.1")) { event in
            if case .stepProgress(_, let step) = event { progress.withLock { $0.append(step.completed) } }
        }
        #expect(resumed.outcome == .succeeded)
        #expect(resumed.steps.map(\.id) == ["2.1/removeEmptyDailys"])
        #expect(progress.withLock { $0.first } == cursor)
        #expect(try fixture.dailys() == expected)
        let journal = try await fixture.launch.store.readJournal()
        let attempts = journal.filter { $0.event == .stepStarted && $0.step == "2.1/removeEmptyDailys" }
        #expect(attempts.map(\.cursor) == [nil, String(cursor)])
        #expect(try await fixture.launch.store.readState()?.inProgress == nil)
        #expect(Readiness(try await fixture.launch.store.readState(), for: Version("2.1"), phase: .background) == .ready)

        // Done once: a later background run finds nothing, even with a new empty daily.
        var dailys = try fixture.dailys()
        dailys.append(Daily(date: "9999-12-31", totalTime: 0))
        try fixture.dailyFile.save(dailys)
        let bytes = try fixture.dataBytes()
        let again = try await fixture.launch.runBackgroundSteps(at: Version("2.1"))
        #expect(again.outcome == .upToDate)
        #expect(again.steps.isEmpty)
        #expect(try fixture.dataBytes() == bytes)
    }

    /// The app's background task: cancelled, as on suspension, the first time `suspend(at:)` is called.
    final class Suspension: Sendable {
        let task = Mutex<Task<RunReport, any Error>?>(nil)
        let reported = Mutex<Int?>(nil)

        var cancelledAt: Int? { reported.withLock { $0 } }

        /// Starts `work`, holding the lock until the handle is stored, so a `suspend` cannot miss it.
        func start(_ work: @escaping @Sendable () async throws -> RunReport) -> Task<RunReport, any Error> {
            task.withLock { task in
                let started = Task { try await work() }
                task = started
                return started
            }
        }

        func suspend(at completed: Int) {
            let first = reported.withLock { value in
                defer { value = value ?? completed }
                return value == nil
            }
            if first { task.withLock { $0?.cancel() } }
        }
    }

    func modificationDate(of path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }
}
