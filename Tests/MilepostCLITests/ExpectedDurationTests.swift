import Foundation
import Testing

/// Expected durations and deadlines (`plan` with the store's journal and `--history`, `plan
/// --deadline`, `run --deadline`, `status`'s ETA), run as the built binary against real stores.
@Suite struct ExpectedDurationTests {
    static let manifest = """
        app: shop
        migrations:
          "2.1":
            - {name: exec, id: migrate, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: backfill, expected: 2m, resumable: true, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: fresh, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
        """

    /// Each step's fingerprint, as `milepost lock` writes it.
    static func fingerprints(_ work: WorkDirectory) throws -> [String: String] {
        let lock = try work.milepost.run("lock")
        #expect(lock.status == 0, "\(lock.stderr)")
        return Dictionary(uniqueKeysWithValues: try work.read("milepost.lock").split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            let fields = $0.split(separator: " ")
            return (String(fields[0]), String(fields[1]))
        })
    }

    /// A file store at `store` whose journal records completed attempts of `step`: one run each,
    /// with these durations and fingerprint (what a staging store's journal holds).
    static func recordHistory(
        _ work: WorkDirectory, store: String, step: String, milliseconds: [Int], fingerprint: String
    ) throws {
        let existing = work.exists(store + "/journal.jsonl") ? try work.read(store + "/journal.jsonl") : ""
        let lines = milliseconds.enumerated().map { index, ms in
            #"{"attempt":1,"duration_ms":\#(ms),"event":"step-succeeded","fingerprint":"\#(fingerprint)","host":"staging","pid":7,"#
                + #""run":"\#(store)-\#(fingerprint.prefix(4))-\#(index)","step":"\#(step)","time":"2026-01-02T03:04:05.000Z"}"#
        }
        try work.write(existing + lines.joined(separator: "\n") + "\n", to: store + "/journal.jsonl")
    }

    static func step(_ plan: JSONValue, _ id: String) -> JSONValue? {
        plan["steps"]?.array?.first { $0["id"]?.string == id }
    }

    @Test func aStoreWithARecordedHistoryGivesTheMedianP95AndMaxOfTheStepAsItIsNow() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let fingerprint = try #require(try Self.fingerprints(work)["2.1/migrate"])
        try Self.recordHistory(
            work, store: "staging", step: "2.1/migrate", milliseconds: [1_000, 3_000, 2_000, 4_000, 10_000], fingerprint: fingerprint)
        // Runs of the entry before it was edited are shown apart.
        try Self.recordHistory(work, store: "staging", step: "2.1/migrate", milliseconds: [50_000, 60_000], fingerprint: "0123456789abcdef")

        let json = try work.milepost.run("plan", "--to", "2.1", "--history", "staging", "--format", "json")
        #expect(json.status == 0, "\(json.stderr)")
        let plan = try JSONValue(parsing: json.stdout)
        let migrate = Self.step(plan, "2.1/migrate")
        #expect(migrate?["duration"]?["runs"] == .integer(5))
        #expect(migrate?["duration"]?["median_ms"] == .integer(3_000))
        #expect(migrate?["duration"]?["p95_ms"] == .integer(10_000))
        #expect(migrate?["duration"]?["max_ms"] == .integer(10_000))
        #expect(migrate?["edited_duration"]?["runs"] == .integer(2))
        #expect(migrate?["edited_duration"]?["median_ms"] == .integer(55_000))
        // No history: the manifest's expected: stands in.
        #expect(Self.step(plan, "2.1/backfill")?["duration"] == nil)
        #expect(Self.step(plan, "2.1/backfill")?["expected_ms"] == .integer(120_000))
        #expect(Self.step(plan, "2.1/fresh")?["duration"] == nil)

        let text = try work.milepost.run("plan", "--to", "2.1", "--history", "staging")
        #expect(text.status == 0)
        #expect(text.stdout.contains(
            "duration: 3.0 s median, 10.0 s p95, 10.0 s max (5 runs); "
                + "before its entry was edited: 55.0 s median, 1 min 00 s p95, 1 min 00 s max (2 runs)"), "\(text.stdout)")
        #expect(text.stdout.contains("duration: no history; expected: 2 min 00 s"), "\(text.stdout)")
    }

    @Test func runsOnSeveralStoresAreTheHistoryOfTheNextAndAnEditedStepStartsAnew() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        for store in ["ci-1", "ci-2", "ci-3"] {
            let run = try work.milepost.run("run", "--to", "2.1", "--store", store)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let history = ["--history", "ci-1", "--history", "ci-2", "--history", "ci-3"]
        let plan = try JSONValue(parsing: try work.milepost.run(["plan", "--to", "2.1", "--store", "prod", "--format", "json"] + history).stdout)
        for id in ["2.1/migrate", "2.1/backfill", "2.1/fresh"] {
            #expect(Self.step(plan, id)?["duration"]?["runs"] == .integer(3), "\(id)")
            #expect(Self.step(plan, id)?["edited_duration"] == nil, "\(id)")
        }
        // Edited: its three runs were of another entry.
        try work.write(Self.manifest.replacingOccurrences(of: "id: fresh, with: {command: [sh, -c,", with: "id: fresh, with: {command: [sh, -ec,"),
                       to: "milepost.yaml")
        let edited = try JSONValue(parsing: try work.milepost.run(["plan", "--to", "2.1", "--store", "prod", "--format", "json"] + history).stdout)
        #expect(Self.step(edited, "2.1/fresh")?["duration"] == nil)
        #expect(Self.step(edited, "2.1/fresh")?["edited_duration"]?["runs"] == .integer(3))
        #expect(Self.step(edited, "2.1/migrate")?["duration"]?["runs"] == .integer(3))
    }

    @Test func aDeadlineTheHistorySaysIsTooShortFailsPlanAndStopsRunBeforeTheStepWithTheStoreUnchanged() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let fingerprint = try #require(try Self.fingerprints(work)["2.1/migrate"])
        try Self.recordHistory(work, store: "staging", step: "2.1/migrate", milliseconds: [8_000, 9_000, 10_000], fingerprint: fingerprint)

        // plan: 10 s (p95 of migrate) + 2 min (backfill's expected:) against 90 s.
        let plan = try work.milepost.run("plan", "--to", "2.1", "--history", "staging", "--deadline", "90s", "--format", "json")
        #expect(plan.status == 6, "\(plan.stderr)")
        let deadline = try JSONValue(parsing: plan.stdout)["deadline"]
        #expect(deadline?["fits"] == .bool(false))
        #expect(deadline?["total_ms"] == .integer(130_000))
        #expect(deadline?["largest"]?.array?.map { $0["id"]?.string } == ["2.1/backfill"])
        #expect(deadline?["unknown"]?.array?.map(\.string) == ["2.1/fresh"])
        #expect(deadline?["background_candidates"]?.array?.map(\.string) == ["2.1/backfill"])
        var environment = work.milepost
        environment.environment["MILEPOST_DEADLINE"] = "90s"
        let github = try environment.run("plan", "--to", "2.1", "--history", "staging", "--format", "github")
        #expect(github.status == 6, "\(github.stderr)")
        #expect(github.stdout.contains("::error file=milepost.yaml,line=5,title=milepost%3A over the deadline::"), "\(github.stdout)")
        #expect(github.stdout.contains("2.1/backfill is resumable: 'phase: background' runs it after the release starts"))
        #expect(try work.milepost.run("plan", "--to", "2.1", "--history", "staging", "--deadline", "3m").status == 0)

        // run: migrate needs 10 s and 5 s are left: it stops before it, and stores nothing.
        let run = try work.milepost.run(
            "run", "--to", "2.1", "--store", "prod", "--history", "staging", "--deadline", "5s", "--format", "json")
        #expect(run.status == 6, "\(run.stderr)")
        let report = try JSONValue(parsing: run.stdout)
        #expect(report["outcome"]?.string == "deadline-refused")
        #expect(report["deadline_refusal"]?["step"]?.string == "2.1/migrate")
        #expect(report["deadline_refusal"]?["needs_ms"] == .integer(10_000))
        #expect(report["steps"]?.array == [])
        #expect(!work.exists("ran.txt"))
        #expect(!work.exists("prod/state.json"))
        let journal = try ReliabilityFixture.journal(in: work, store: "prod")
        #expect(journal.map { $0["event"] as? String } == ["run-started", "run-finished"])
        #expect(journal.last?["outcome"] as? String == "deadline-refused")

        // With 60 s: migrate fits and runs; backfill (2 min) no longer does: the run stops before it.
        let partial = try work.milepost.run("run", "--to", "2.1", "--store", "prod", "--history", "staging", "--deadline", "60s")
        #expect(partial.status == 6, "\(partial.stderr)")
        #expect(partial.stderr.contains("2.1/backfill needs 2 min 00 s (its 'expected:')"), "\(partial.stderr)")
        #expect(try work.read("ran.txt") == "2.1/migrate\n")
        let state = try ReliabilityFixture.object(try work.read("prod/state.json"))
        #expect(state["version"] as? String == "0")
        #expect((state["completed"] as? [[String: Any]])?.map { $0["id"] as? String } == ["2.1/migrate"])
        #expect(state["in_progress"] == nil)
        // With time enough the next run goes on where it stopped.
        #expect(try work.milepost.run("run", "--to", "2.1", "--store", "prod", "--history", "staging", "--deadline", "5m").status == 0)
        #expect(try work.read("ran.txt") == "2.1/migrate\n2.1/backfill\n2.1/fresh\n")
    }

    @Test func statusGivesARunningStepsETAFromItsHistory() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: wait, with: {command: [sh, -c, 'touch started; while [ ! -e release ]; do sleep 0.05; done']}}
            """, to: "milepost.yaml")
        let fingerprint = try #require(try Self.fingerprints(work)["1.0/wait"])
        // The store's own journal: the step ran elsewhere before (copied in with `store copy`).
        try Self.recordHistory(work, store: ".milepost", step: "1.0/wait", milliseconds: [60_000, 120_000, 180_000], fingerprint: fingerprint)
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1.0"])
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        let status = try work.milepost.run("status", "--to", "1.0", "--format", "json")
        let text = try work.milepost.run("status", "--to", "1.0")
        try work.write("", to: "release")
        #expect(MilepostBinary.finish(process, stdout, stderr, within: .seconds(60)).status == 0)

        let eta = try JSONValue(parsing: status.stdout)["eta"]
        #expect(eta?["basis"]?.string == "history")
        #expect(eta?["p95_ms"] == .integer(180_000))
        let since = try #require(try JSONValue(parsing: status.stdout)["running"]?["since"]?.string)
        let at = try #require(eta?["at"]?.string)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let seconds = try #require(formatter.date(from: at)).timeIntervalSince(try #require(formatter.date(from: since)))
        #expect(seconds == 120, "the median of 60, 120 and 180 s after the attempt started")
        #expect(text.stdout.contains("eta         about "), "\(text.stdout)")
        #expect(text.stdout.contains("the median of its runs, p95 3 min 00 s)"), "\(text.stdout)")
    }
}
