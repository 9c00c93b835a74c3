import Milepost
import MilepostTestSupport
import Testing

/// `StepDurations` and `DeadlineBudget`, directly: the statistics of recorded attempts, how a
/// record is matched to the step as it is now, and what a budget counts.
@Suite struct StepDurationsTests {
    /// Durations in ms → runs, median, p95 (nearest rank), max.
    @Test(arguments: [
        ([250], 1, 250, 250, 250),
        ([300, 100, 200], 3, 200, 300, 300),
        ([400, 100, 300, 200], 4, 250, 400, 400),
        // Nearest rank: the 19th of 20 (95 % of 20), not the longest.
        (Array(1...20).map { $0 * 100 }, 20, 1050, 1900, 2000),
        (Array(1...100).map { $0 * 10 } + [60_000], 101, 510, 960, 60_000),
    ])
    func statistics(of milliseconds: [Int], runs: Int, median: Int, p95: Int, max: Int) throws {
        let statistics = try #require(DurationStatistics(milliseconds: milliseconds))
        #expect(statistics.runs == runs)
        #expect(statistics.median == .milliseconds(median))
        #expect(statistics.p95 == .milliseconds(p95))
        #expect(statistics.max == .milliseconds(max))
    }

    @Test func noAttemptsHaveNoStatistics() {
        #expect(DurationStatistics(milliseconds: []) == nil)
    }

    static let manifest = """
        migrations:
          "2.1":
            - note
            - {name: note, id: planned, expected: 90s}
            - {name: note, id: unknown}
        """

    static func succeeded(_ step: String, ms: Int, run: String, attempt: Int = 1, fingerprint: String?) -> JournalRecord {
        var record = JournalRecord(
            time: Timestamp("2026-01-02T03:04:00.001Z")!, run: run, event: .stepSucceeded, step: step, attempt: attempt, durationMs: ms)
        record.fingerprint = fingerprint
        return record
    }

    @Test func attemptsOfAnEarlierEntryAreToldApartAndTheStateStandsInForOldRecords() throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest(Self.manifest)
        let note = try #require(manifest.step(id: "2.1/note"))
        var durations = StepDurations()
        durations.add(journal: [
            Self.succeeded("2.1/note", ms: 100, run: "a", fingerprint: note.fingerprint),
            Self.succeeded("2.1/note", ms: 300, run: "b", fingerprint: note.fingerprint),
            Self.succeeded("2.1/note", ms: 9_000, run: "c", fingerprint: "0123456789abcdef"),
            // Written before records carried fingerprints: the state's record of run d tells it.
            Self.succeeded("2.1/note", ms: 7_000, run: "d", fingerprint: nil),
            // A failed attempt is no completed attempt.
            JournalRecord(time: Timestamp("2026-01-02T03:04:00.001Z")!, run: "e", event: .stepFailed, step: "2.1/note", durationMs: 1),
        ], state: StoredState(
            app: nil, version: Version("2.1"),
            completed: [CompletedStep(id: "2.1/note", at: Timestamp("2026-01-02T03:04:00.001Z")!, run: "d", fingerprint: "fedcba9876543210")],
            updatedAt: Timestamp("2026-01-02T03:04:00.001Z")!))
        // The same attempt read again (a store and its copy) counts once.
        durations.add(journal: [Self.succeeded("2.1/note", ms: 300, run: "b", fingerprint: note.fingerprint)], state: nil)

        let estimate = durations.estimate(for: note)
        #expect(estimate.history == DurationStatistics(milliseconds: [100, 300]))
        #expect(estimate.editedHistory == DurationStatistics(milliseconds: [9_000, 7_000]))
        #expect(estimate.budgeted?.duration == .milliseconds(300))
        #expect(estimate.budgeted?.basis == .history)

        let planned = try #require(manifest.step(id: "2.1/planned"))
        #expect(durations.estimate(for: planned).budgeted?.duration == .seconds(90))
        #expect(durations.estimate(for: planned).budgeted?.basis == .expected)
        #expect(durations.estimate(for: try #require(manifest.step(id: "2.1/unknown"))).budgeted == nil)
    }

    @Test func aBudgetSumsThePendingWorkAndNamesWhatMakesMostOfIt() async throws {
        let fixture = try RunnerFixture()
        let manifest = try fixture.manifest("""
            migrations:
              "2.1":
                - {name: note, id: small, expected: 10s}
                - {name: note, id: backfill, expected: 5m, resumable: true}
                - {name: note, id: reindex, expected: 2m}
                - {name: note, id: unknown}
            """)
        let plan = Planner.plan(manifest, state: nil, from: Version("2.0"), origin: .given, to: Version("2.1"))
        let budget = DeadlineBudget(plan, durations: StepDurations(), deadline: .seconds(90))
        #expect(budget.total == .seconds(430))
        #expect(!budget.fits)
        #expect(budget.largest.map(\.step.id) == ["2.1/backfill", "2.1/reindex"])
        #expect(budget.backgroundCandidates.map(\.id) == ["2.1/backfill"])
        #expect(budget.unknown.map(\.id) == ["2.1/unknown"])
        #expect(DeadlineBudget(plan, durations: StepDurations(), deadline: .seconds(430)).fits)
    }
}
