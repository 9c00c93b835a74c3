import Foundation
import Milepost
import MilepostTesting
import Testing

/// `UpgradePaths.interruptions`: an app's own steps stopped at every commit point in the process,
/// the store reopened from disk, the run resumed with the app's policy, the end compared.
struct InterruptionTrialsTests {
    /// `2.0/unsafe` counts its batches in `count` before committing each cursor, so a run resumed at
    /// the last durable cursor counts a batch twice; `2.0/safe` marks each batch done in a file of
    /// its own, which running it again leaves as it is.
    static let manifest = """
        app: crash
        baseline: "1.0"
        migrations:
          "2.0": [unsafe, safe]
        """

    static func registry(_ directory: String) -> StepRegistry {
        var registry = StepRegistry()
        registry.register("unsafe", resumable: true) { context in
            var batch = context.resumeCursor.flatMap(Int.init) ?? 0
            while batch < 3 {
                batch += 1
                let count = (try? String(contentsOfFile: directory + "/count", encoding: .utf8)).flatMap { Int($0) } ?? 0
                try String(count + 1).write(toFile: directory + "/count", atomically: true, encoding: .utf8)
                try await context.commitCursor(String(batch))
            }
        }
        registry.register("safe", resumable: true) { context in
            var batch = context.resumeCursor.flatMap(Int.init) ?? 0
            while batch < 3 {
                batch += 1
                try "done".write(toFile: directory + "/batch-\(batch)", atomically: true, encoding: .utf8)
                await context.reportProgress(batch, of: 3)
                try await context.commitCursor(String(batch))
            }
        }
        return registry
    }

    /// What the app shows: its count and the batches marked done.
    struct AppState: Equatable, Sendable {
        var count: Int
        var batches: [String]
    }

    static func appState(_ scenario: UpgradeScenario) throws -> AppState {
        AppState(
            count: (try? String(contentsOfFile: scenario.directory + "/count", encoding: .utf8)).flatMap { Int($0) } ?? 0,
            batches: try FileManager.default.contentsOfDirectory(atPath: scenario.directory).filter { $0.hasPrefix("batch-") }.sorted())
    }

    @Test(arguments: [InterruptedStepPolicy.retry, .block])
    func onlyTheStepThatCountsBeforeItsCursorCommitIsUnsafeAndAtEachOfItsCursorCommits(policy: InterruptedStepPolicy) async throws {
        var options = RunOptions()
        options.interruptedSteps = policy
        let paths = try await UpgradePaths(manifest: Self.manifest, registry: Self.registry)
            .interruptions(from: ["1.0"], to: "2.0", options: options) { try Self.appState($0) }
        let path = try #require(paths.first)
        #expect(path.freshInstallDifference == nil)
        #expect(path.points.map(\.line) == [
            "run-started 1",
            "step-started 1 2.0/unsafe", "cursor 1 2.0/unsafe", "cursor 2 2.0/unsafe", "cursor 3 2.0/unsafe", "step-ended 1 2.0/unsafe",
            "step-started 1 2.0/safe", "progress 1 2.0/safe", "cursor 1 2.0/safe", "progress 2 2.0/safe", "cursor 2 2.0/safe",
            "progress 3 2.0/safe", "cursor 3 2.0/safe", "step-ended 1 2.0/safe",
            "run-finished 1",
        ])
        #expect(path.trials.count == CrashPoint.trials(in: path.points).count)
        #expect(path.trials.allSatisfy { $0.reached })
        let failures = path.findings.filter(\.isFailure)
        #expect(failures.map(\.crash?.line) == ["before cursor 1 2.0/unsafe", "before cursor 2 2.0/unsafe", "before cursor 3 2.0/unsafe"])
        #expect(failures.map(\.step) == Array(repeating: "2.0/unsafe", count: 3))
        let batches = #"["batch-1", "batch-2", "batch-3"]"#
        #expect(failures[1].description == "2.0/unsafe is not safe to resume after an interruption just before its cursor commit #2: "
            + "the app's state after the resumed upgrade is AppState(count: 4, batches: \(batches)), "
            + "after the uninterrupted one AppState(count: 3, batches: \(batches))")
        let resumedAtCursor = path.trials.first { $0.crash.line == "before cursor 2 2.0/unsafe" }?.recovery
        #expect(resumedAtCursor == TrialRecovery(resolved: false, reran: true, cursor: "1"))
        // Stopped just after its start, before its first cursor, the step is neither idempotent nor
        // resumable yet: the app's policy runs it again, or an operator resolves it (a note).
        let started = try #require(path.trials.first { $0.crash.line == "after step-started 1 2.0/unsafe" })
        #expect(started.recovery?.resolved == (policy == .block))
        #expect(started.agrees)
    }

    @Test func verifyThrowsNamingTheStepAndTheCommitPointWithTheSeed() async throws {
        let paths = UpgradePaths(manifest: Self.manifest, registry: Self.registry)
        var options = RunOptions()
        options.interruptedSteps = .retry
        let error = try await #require(throws: InterruptionMismatch.self) {
            try await paths.verifyInterruptions(
                from: ["1.0"], to: "2.0", options: options, selection: TrialSelection(seed: 7, maxTrials: 40)
            ) { try Self.appState($0) }
        }
        #expect(error.seed == 7)
        #expect(error.description.contains("from 1.0: 2.0/unsafe is not safe to resume after an interruption just before its cursor commit #1: "))
        #expect(!error.description.contains("2.0/safe"))
    }

    @Test func aSampleTriesAtMostMaxTrialsPointsAndTheSameSeedTheSamePoints() async throws {
        let paths = UpgradePaths(manifest: Self.manifest, registry: Self.registry)
        var options = RunOptions()
        options.interruptedSteps = .retry
        func tried(seed: UInt64) async throws -> [String] {
            try await paths.interruptions(
                from: ["1.0"], to: "2.0", options: options, selection: TrialSelection(seed: seed, maxTrials: 4)
            ) { try Self.appState($0) }[0].trials.map(\.crash.line)
        }
        let first = try await tried(seed: 11)
        #expect(first.count == 4)
        #expect(try await tried(seed: 11) == first)
    }
}
