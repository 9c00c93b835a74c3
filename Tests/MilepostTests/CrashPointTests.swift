import Milepost
import MilepostSystem
import Testing

/// The rules of a crash test, directly: which crash points get a trial, how a seed samples them,
/// what the previous release must do at one, what the next run did, how two outputs differ.
struct CrashPointTests {
    static func point(_ line: String) -> CommitPoint { CommitPoint(line: line)! }

    /// Just before a commit that follows the step's own work, just after one its work goes on from.
    @Test(arguments: [
        ("run-started 1", ["after run-started 1"]),
        ("step-started 1 2.7/a", ["after step-started 1 2.7/a"]),
        ("process-group 1 2.7/a", ["after process-group 1 2.7/a"]),
        ("cursor 3 2.7/a", ["before cursor 3 2.7/a", "after cursor 3 2.7/a"]),
        ("progress 2 2.7/a", ["before progress 2 2.7/a", "after progress 2 2.7/a"]),
        ("step-ended 1 2.7/a", ["before step-ended 1 2.7/a"]),
        ("run-finished 1", ["before run-finished 1"]),
    ])
    func trialsAroundEachKindOfCommit(point: String, trials: [String]) {
        #expect(CrashPoint.trials(in: [Self.point(point)]).map(\.line) == trials)
    }

    @Test(arguments: ["cursor 3 2.7/a b", "run-finished 1", "before cursor 1 2.7/with space", "after step-ended 2 before_run/x"])
    func aPointReadsBackFromItsLine(line: String) {
        if let crash = CrashPoint(line: line) {
            #expect(crash.line == line)
        } else {
            #expect(CommitPoint(line: line)?.line == line)
        }
    }

    @Test(arguments: ["", "cursor", "cursor x 2.7/a", "cursor 0 2.7/a", "flush 1", "during cursor 1 2.7/a"])
    func aLineThatNamesNoPointIsRefused(line: String) {
        #expect(CommitPoint(line: line) == nil || line.hasPrefix("during"))
        #expect(CrashPoint(line: line) == nil)
    }

    @Test func theWordsOfAPoint() {
        #expect(Self.point("cursor 3 2.7/a").description == "the cursor commit #3 of 2.7/a")
        #expect(Self.point("step-started 1 2.7/a").description == "the step-started commit of 2.7/a")
        #expect(CrashPoint(.before, Self.point("cursor 1 2.7/a")).relative == "just before its cursor commit #1")
        #expect(CrashPoint(.before, Self.point("run-finished 1")).relative == "just before the run-finished commit")
    }

    static let points = (1...10).map { point("cursor \($0) 2.7/a") }
    static let crashes = CrashPoint.trials(in: points)

    @Test func withoutMaxTrialsEveryPointIsTriedInOrder() {
        #expect(TrialSelection(seed: 9).choose(from: Self.crashes) == Self.crashes)
        #expect(TrialSelection(seed: 9, maxTrials: 50).choose(from: Self.crashes) == Self.crashes)
    }

    @Test(arguments: [0, 1, 2, 99, 1 << 40])
    func aSeedSamplesTheSamePointsEveryTimeInTheirOrder(seed: UInt64) {
        let chosen = TrialSelection(seed: seed, maxTrials: 5).choose(from: Self.crashes)
        #expect(chosen.count == 5)
        #expect(chosen == TrialSelection(seed: seed, maxTrials: 5).choose(from: Self.crashes))
        #expect(chosen.map { Self.crashes.firstIndex(of: $0)! } == chosen.map { Self.crashes.firstIndex(of: $0)! }.sorted())
    }

    @Test func differentSeedsSampleDifferentPoints() {
        let samples = Set((0..<8).map { TrialSelection(seed: $0, maxTrials: 3).choose(from: Self.crashes) })
        #expect(samples.count > 1)
    }

    /// The reference run: a pre-start step, then the contract step `3.0/drop` (its start, a cursor,
    /// its end), then the run's last write.
    static let contractRun = [
        "run-started 1", "step-started 1 3.0/add", "step-ended 1 3.0/add", "step-started 1 3.0/drop", "cursor 1 3.0/drop",
        "step-ended 1 3.0/drop", "run-finished 1",
    ].map(point)

    @Test(arguments: [
        ("after run-started 1", PreviousReleaseCheck.Expectation.starts),
        ("after step-started 1 3.0/add", .starts),
        ("before step-ended 1 3.0/add", .starts),
        ("after step-started 1 3.0/drop", .refused),
        ("before cursor 1 3.0/drop", .refused),
        ("before run-finished 1", .refused),
    ])
    func thePreviousReleaseIsRefusedOnceAContractStepBegan(crash: String, expected: PreviousReleaseCheck.Expectation) {
        let (expectation, step) = PreviousReleaseCheck.expectation(
            at: CrashPoint(line: crash)!, in: Self.contractRun, contractSteps: ["3.0/drop"])
        #expect(expectation == expected)
        #expect(step == (expected == .refused ? "3.0/drop" : nil))
    }

    /// A step in the store's transaction commits no start: it began once its first commit is durable.
    @Test func aTransactionalContractStepBeganAtItsFirstDurableCommit() {
        let run = ["run-started 1", "cursor 1 3.0/drop", "step-ended 1 3.0/drop", "run-finished 1"].map(Self.point)
        func expectation(_ crash: String) -> PreviousReleaseCheck.Expectation {
            PreviousReleaseCheck.expectation(at: CrashPoint(line: crash)!, in: run, contractSteps: ["3.0/drop"]).0
        }
        #expect(expectation("before cursor 1 3.0/drop") == .starts)
        #expect(expectation("after cursor 1 3.0/drop") == .refused)
    }

    @Test(arguments: [(Int32(0), PreviousReleaseCheck.Expectation.starts, true), (3, .starts, false), (2, .starts, false),
                      (3, .refused, true), (2, .refused, true), (0, .refused, false), (1, .refused, false)])
    func whatAgreesWithTheExpectation(exitCode: Int32, expected: PreviousReleaseCheck.Expectation, agrees: Bool) {
        #expect(PreviousReleaseCheck(version: "2.9", expected: expected, contractStep: nil, exitCode: exitCode).agrees == agrees)
    }

    @Test(arguments: [("a\nb\n", "a\nb\n", nil), ("a\nb\n", "a\nc\n", 2), ("a\n", "a\nb\n", 2), ("x", "y", 1), ("", "a", 1)])
    func theFirstLineThatDiffers(reference: String, other: String, line: Int?) {
        #expect(TextDifference.firstDifferingLine(reference, other) == line)
    }

    static func record(_ event: JournalRecord.Event, _ step: String?, cursor: String? = nil) -> JournalRecord {
        JournalRecord(time: Timestamp.now(), run: "r", event: event, step: step, host: "h", pid: 1, cursor: cursor)
    }

    @Test func theRecoveryIsReadFromTheJournal() {
        let resumed = TrialRecovery(of: "2.7/a", in: [
            Self.record(.runStarted, nil), Self.record(.stepStarted, "2.7/a", cursor: "4"), Self.record(.stepSucceeded, "2.7/a"),
        ])
        #expect(resumed == TrialRecovery(resolved: false, reran: true, cursor: "4"))
        #expect(resumed.description == "resumed at cursor 4")
        let retried = TrialRecovery(of: "2.7/a", in: [
            Self.record(.runStarted, nil), Self.record(.runFinished, "2.7/a"), Self.record(.resolved, "2.7/a"),
            Self.record(.runStarted, nil), Self.record(.stepStarted, "2.7/b"), Self.record(.stepStarted, "2.7/a"),
        ])
        #expect(retried.description == "blocked (exit 2); resolve --retry, then ran again from the start")
        #expect(TrialRecovery(of: nil, in: [Self.record(.runStarted, nil)]).description == "nothing to redo")
    }
}
