import Foundation
import Testing

/// The manifest's `hooks:` (before_run, after_run, on_failure), run as the built binary: every hook
/// and step appends its name to ran.txt, so the file is the order things ran in.
@Suite struct HookTests {
    /// Hooks around `a` (1.0) and `b` (2.0); `b` exits with `$FAIL_B` (default 0), `before_run/check`
    /// with `$FAIL_BEFORE`, `after_run/notify` with `$FAIL_AFTER`.
    static let manifest = """
        app: demo
        hooks:
          before_run:
            - {name: exec, id: check, with: {command: [sh, -c, 'echo before >> ran.txt; echo database unreachable >&2; exit ${FAIL_BEFORE:-0}']}}
            - {name: exec, id: warm, with: {command: [sh, -c, 'echo warm >> ran.txt']}}
          after_run:
            - {name: exec, id: notify, with: {command: [sh, -c, 'echo after >> ran.txt; exit ${FAIL_AFTER:-0}']}}
            - {name: exec, id: tidy, with: {command: [sh, -c, 'echo tidy >> ran.txt']}}
          on_failure:
            - {name: exec, id: alert, with: {command: [sh, -c, 'echo alert >> ran.txt']}}
        migrations:
          "1.0":
            - {name: exec, id: a, with: {command: [sh, -c, 'echo a >> ran.txt']}}
          "2.0":
            - {name: exec, id: b, with: {command: [sh, -c, 'echo b >> ran.txt; exit ${FAIL_B:-0}']}}

        """

    static func ran(_ work: WorkDirectory) throws -> [String] {
        work.exists("ran.txt") ? try work.read("ran.txt").split(separator: "\n").map(String.init) : []
    }

    static func events(_ work: WorkDirectory) throws -> [String] {
        try ReliabilityFixture.journal(in: work).map { "\($0["event"] as? String ?? "?") \($0["step"] as? String ?? "")" }
    }

    @Test func hooksRunAroundARunWithStepsInOrderJournaledAndNeverRecorded() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let run = try work.milepost.run("run", "--to", "1.0", "--format", "json")
        #expect(run.status == 0)
        #expect(try Self.ran(work) == ["before", "warm", "a", "after", "tidy"])
        let document = try JSONValue(parsing: run.stdout)
        #expect(document["hooks"]?.array?.map { $0["id"]?.string } == [
            "before_run/check", "before_run/warm", "after_run/notify", "after_run/tidy",
        ])
        #expect(try Self.events(work) == [
            "run-started ", "hook-started before_run/check", "hook-succeeded before_run/check",
            "hook-started before_run/warm", "hook-succeeded before_run/warm",
            "step-started 1.0/a", "step-succeeded 1.0/a",
            "hook-started after_run/notify", "hook-succeeded after_run/notify",
            "hook-started after_run/tidy", "hook-succeeded after_run/tidy", "run-finished ",
        ])
        // Never recorded as steps: the state has only the step.
        let state = try JSONValue(parsing: try work.read(".milepost/state.json"))
        #expect(state["completed"]?.array?.compactMap { $0["id"]?.string } == ["1.0/a"])

        // An up-to-date run (the fast path) and a dry run run no hook.
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        #expect(try work.milepost.run("run", "--to", "1.0", "--dry-run").status == 0)
        #expect(try Self.ran(work) == ["before", "warm", "a", "after", "tidy"])
        // The next run with steps runs them again.
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["before", "warm", "a", "after", "tidy", "before", "warm", "b", "after", "tidy"])
    }

    @Test func onFailureRunsAfterAFailingStepAndTheRunKeepsTheStepsExitCode() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let run = try MilepostBinary(directory: work.path, environment: ["FAIL_B": "3"]).run(["run", "--to", "2.0"])
        #expect(run.status == 1)
        #expect(try Self.ran(work) == ["before", "warm", "a", "b", "alert"])
        #expect(run.stderr.contains("hook on_failure/alert ok in"))
        #expect(run.stderr.contains("milepost: demo step 2.0/b failed; the stored version stays 0."))
        let events = try Self.events(work)
        #expect(events.suffix(4) == ["step-failed 2.0/b", "hook-started on_failure/alert", "hook-succeeded on_failure/alert", "run-finished 2.0/b"])
    }

    @Test func aFailingBeforeRunHookStopsTheRunBeforeAnyStepWithExit1() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let run = try MilepostBinary(directory: work.path, environment: ["FAIL_BEFORE": "4"]).run(["run", "--to", "2.0"])
        #expect(run.status == 1)
        #expect(try Self.ran(work) == ["before"])
        #expect(run.stderr.contains("hook before_run/check FAILED in"))
        #expect(run.stderr.contains("hook before_run/check FAILED in") && run.stderr.contains(": 'sh' exited with status 4\n"), "\(run.stderr)")
        #expect(run.stderr.components(separatedBy: "database unreachable").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("milepost: demo hook before_run/check failed, so no step ran; the stored version stays 0."))
        let journal = try ReliabilityFixture.journal(in: work)
        #expect(!journal.contains { ($0["event"] as? String)?.hasPrefix("step-") == true })
        let finished = try #require(journal.last)
        #expect(finished["event"] as? String == "run-finished")
        #expect(finished["outcome"] as? String == "failed")
        #expect(finished["step"] as? String == "before_run/check")
        #expect(try work.milepost.run("status", "--format", "json").stdout.contains(#""completed" : 0"#))
    }

    /// With a host step, the host store's journal ends the run it started too: `run-started` and
    /// then `run-finished` naming the hook, as the fleet store's (it was left without an end).
    @Test func aFailingBeforeRunHookEndsTheRunInTheHostStoreToo() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest + """
              "1.5":
                - {name: exec, id: local, scope: host, with: {command: [sh, -c, 'echo local >> ran.txt']}}

            """, to: "milepost.yaml")
        let run = try MilepostBinary(directory: work.path, environment: ["FAIL_BEFORE": "4"])
            .run(["run", "--to", "2.0", "--host-store", "host"])
        #expect(run.status == 1)
        #expect(try Self.ran(work) == ["before"])
        for store in [".milepost", "host"] {
            let journal = try ReliabilityFixture.journal(in: work, store: store)
            let runs = journal.compactMap { $0["event"] as? String }.filter { $0.hasPrefix("run-") }
            #expect(runs == ["run-started", "run-finished"], "\(store)")
            #expect(journal.last?["outcome"] as? String == "failed", "\(store)")
            #expect(journal.last?["step"] as? String == "before_run/check", "\(store)")
        }
    }

    @Test func aFailingAfterRunHookIsReportedButTheRunSucceedsAndTheOtherHooksRun() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let run = try MilepostBinary(directory: work.path, environment: ["FAIL_AFTER": "2"]).run(["run", "--to", "1.0", "--format", "json"])
        #expect(run.status == 0)
        #expect(try Self.ran(work) == ["before", "warm", "a", "after", "tidy"])
        let document = try JSONValue(parsing: run.stdout)
        #expect(document["outcome"]?.string == "succeeded")
        #expect(document["hooks"]?.array?.map { $0["status"]?.string } == ["succeeded", "succeeded", "failed", "succeeded"])
        #expect(try work.milepost.run("status", "--format", "json").stdout.contains(#""version" : "1.0""#))
    }

    /// SIGTERM while a failed `before_run` hook waits for its retry: as for a step (hooks and steps
    /// share one attempt loop), no further attempt starts, not even one journaled as cancelled; the
    /// hook's last `hook-failed` stands, the run ends interrupted and exits 143.
    @Test func aSignalDuringAHooksRetryBackOffStartsNoFurtherAttempt() throws {
        let work = try WorkDirectory()
        try work.write("""
            hooks:
              before_run:
                - {name: exec, id: check, retries: 3, with: {command: [sh, -c, 'echo x >> attempts; exit 1']}}
            migrations:
              "1.0":
                - {name: exec, id: a, with: {command: [touch, a-ran]}}

            """, to: "milepost.yaml")
        // The first attempt fails and is journaled; the runner then sleeps 1 s before the second.
        let result = try ReliabilityFixture.terminate(work, run: ["--to", "1.0"], after: "hook-failed")
        #expect(result.status == 143, "\(result.stderr)")
        #expect(try work.read("attempts") == "x\n", "an attempt started after the signal")
        #expect(!work.exists("a-ran"))
        #expect(try Self.events(work) == [
            "run-started ", "hook-started before_run/check", "hook-failed before_run/check", "run-finished before_run/check",
        ])
        #expect(try ReliabilityFixture.journal(in: work).last?["outcome"] as? String == "interrupted")
    }

    @Test func unknownHookKeysAreLocatedErrorsWithDidYouMean() throws {
        let work = try WorkDirectory()
        try work.write("""
            hooks:
              before_runs: [exec]
              on_failure:
                - {name: exec, late: run, with: {command: ['true']}}
            migrations:
              "1.0": [{name: exec, with: {command: ['true']}}]

            """, to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 65)
        #expect(validate.stderr.contains("milepost.yaml:2:3: error: unknown key 'before_runs' in 'hooks'"))
        #expect(validate.stderr.contains("did you mean 'before_run'?"))
        #expect(validate.stderr.contains("milepost.yaml:4:14: error: hook on_failure/exec: 'late' applies only to steps under 'migrations'"))
        try work.write("hook:\n  before_run: [exec]\nmigrations:\n  \"1.0\": [{name: exec, with: {command: ['true']}}]\n", to: "milepost.yaml")
        #expect(try work.milepost.run("validate").stderr.contains("did you mean 'hooks'?"))
    }
}
