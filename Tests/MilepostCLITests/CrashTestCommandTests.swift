import Foundation
import MilepostTestSupport
import Testing

/// `milepost test`: the real binary crash-tests a manifest by running itself, killed with SIGKILL
/// at each commit point of the uninterrupted run, then run again as an operator would.
struct CrashTestCommandTests {
    /// The unsafe step is reported at exactly its two cursor commits, and nothing else; each trial's
    /// run was really killed by SIGKILL (its termination as `waitid` reported it to the test).
    @Test func reportsExactlyTheUnsafeStepAtItsCursorCommitsEachTrialKilledBySIGKILL() async throws {
        let work = try WorkDirectory()
        try work.write(CrashTestFixture.manifest, to: "milepost.yaml")
        let result = try await work.milepost.outcome(
            ["test", "--to", "2.0", "--from", "1.0", "--verify", CrashTestFixture.verify, "--seed", "3", "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try CrashTestDocument(json: result.stdout)
        #expect(document.command == "test" && document.seed == 3 && !document.agrees && document.exitCode == 1)
        let path = try #require(document.paths.first)
        #expect(path.from == "1.0")
        #expect(path.commitPoints.map(\.line) == CrashTestFixture.points)
        #expect(path.trials.count == 16)
        #expect(path.trials.allSatisfy { $0.reached && $0.killedBySignal == 9 })
        #expect(path.trials.filter { !$0.agrees }.map(\.line) == CrashTestFixture.unsafe)
        #expect(path.trials.filter { !$0.agrees }.map(\.difference) == ["verify differs at line 1", "verify differs at line 1"])
        let errors = path.findings.filter { $0.severity == "error" }
        #expect(errors.map(\.step) == ["2.0/unsafe", "2.0/unsafe"])
        #expect(errors.map(\.message) == [
            "2.0/unsafe is not safe to resume after an interruption just before its cursor commit #1: verify differs at line 1",
            "2.0/unsafe is not safe to resume after an interruption just before its cursor commit #2: verify differs at line 1",
        ])
        // Before its first cursor the unsafe step is neither idempotent nor resumable: the next run
        // stops at it (exit 2) and the trial resolves it with --retry, as the run advises.
        let resolved = path.trials.filter { $0.resolved == true }.map(\.line)
        #expect(resolved == ["after step-started 1 2.0/unsafe", "after process-group 1 2.0/unsafe", "before cursor 1 2.0/unsafe"])
        #expect(path.findings.filter { $0.severity == "note" }.count == 3)
        #expect(path.trials.first { $0.line == "before cursor 2 2.0/unsafe" }?.nextRun == "resumed at cursor 1")
    }

    /// Every trial of a safe manifest agrees: exit 0, the table and the seed that reproduces the
    /// sample; `--max-trials` takes that many of them.
    @Test func aSafeManifestPassesWithTheSeedPrintedAndMaxTrialsSamples() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "2.0":
                - name: exec
                  id: mark
                  idempotent: true
                  with: {command: [sh, -c, 'echo marked > "$MILEPOST_TEST_DIR/mark"']}
            """, to: "milepost.yaml")
        let result = try work.milepost.run(
            "test", "--to", "2.0", "--from", "1.0", "--verify", "cat mark", "--seed", "42", "--max-trials", "3",
            "--setup", #"test "$MILEPOST_TEST_FROM" = 1.0 && test -d "$MILEPOST_TEST_DIR""#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("=== upgrade path 1.0 → 2.0: 5 commit points, 3 trials ==="), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("every trial agrees: 3 trials (seed 42, at most 3 per path)\n"), "\(result.stdout)")
        #expect(result.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("trial ") }.count == 3)
        let again = try work.milepost.run(
            "test", "--to", "2.0", "--from", "1.0", "--verify", "cat mark", "--seed", "42", "--max-trials", "3", "--format", "json")
        // The same seed samples the same points: the JSON's trials are the text's rows.
        let rows = result.stdout.components(separatedBy: "\n").dropFirst(2).prefix(3)
        #expect(try CrashTestDocument(json: again.stdout).paths[0].trials.map { "\($0.moment) \($0.point.kind)" }
            == rows.map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
    }

    /// `--previous-manifest`: a replica of 2.9 starts at each point until the contract step began,
    /// and must be refused after. Killed between the contract step's end and the run's last commit,
    /// the store is still at 2.9 with its floor raised to 3.0, and 2.9 still starts: the test names
    /// the contract step (GitHub: at its manifest line).
    @Test func theContractStepThatBreaksThePreviousReleaseIsReported() throws {
        let work = try WorkDirectory()
        try work.write("""
            app: shop
            baseline: "2.0"
            migrations:
              "2.9": [{name: exec, id: add-column, with: {command: ['true']}}]
            """, to: "previous.yaml")
        try work.write("""
            app: shop
            baseline: "2.0"
            migrations:
              "2.9": [{name: exec, id: add-column, with: {command: ['true']}}]
              "3.0":
                - name: exec
                  id: drop-legacy
                  phase: contract
                  idempotent: true
                  with: {command: [sh, -c, 'rm -f "$MILEPOST_TEST_DIR/legacy"']}
            """, to: "milepost.yaml")
        let result = try work.milepost.run(
            "test", "--to", "3.0", "--from", "2.9", "--phase", "contract", "--previous-manifest", "previous.yaml",
            "--setup", "touch legacy", "--verify", "ls", "--format", "github")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("PREVIOUS RELEASE"), "\(result.stdout)")
        let errors = result.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors == [
            "error: 3.0/drop-legacy breaks release 2.9: it still starts (exit 0) after an interruption just before the "
                + "run-finished commit, once the contract step began",
        ], "\(result.stdout)")
        #expect(result.stdout.contains("::error file=milepost.yaml,line=6,col=13::from 2.9: 3.0/drop-legacy breaks release 2.9"), "\(result.stdout)")
        #expect(result.stdout.contains("  before run-finished  -  ") && result.stdout.contains("starts, must be refused"), "\(result.stdout)")
    }

    /// Where `when: fresh-install` steps make a fresh install end as an upgrade does, each path's
    /// uninterrupted end is compared with a fresh install's.
    @Test func aPathThatDoesNotEndWhereAFreshInstallDoesIsReported() throws {
        let work = try WorkDirectory()
        try work.write("""
            baseline: "1.0"
            migrations:
              "2.0":
                - {name: exec, id: seed, when: fresh-install, idempotent: true, with: {command: [sh, -c, 'echo 2 > "$MILEPOST_TEST_DIR/schema"']}}
                - {name: exec, id: convert, when: upgrade, idempotent: true, with: {command: [sh, -c, 'echo 1 > "$MILEPOST_TEST_DIR/schema"']}}
            """, to: "milepost.yaml")
        let result = try work.milepost.run("test", "--to", "2.0", "--from", "1.0", "--verify", "cat schema", "--format", "json")
        #expect(result.status == 1, "\(result.stderr)")
        let path = try CrashTestDocument(json: result.stdout).paths[0]
        #expect(path.freshInstallDifference == "verify differs at line 1")
        #expect(path.findings.first?.message == "the upgrade from 1.0 does not end where a fresh install does: verify differs at line 1")
        #expect(path.trials.allSatisfy { $0.agrees })
    }

    @Test(arguments: [
        (["--store", "/tmp/somewhere"], "milepost test makes a fresh store for each trial"),
        (["--previous-manifest", "old.yaml"], "--previous-manifest needs --from"),
        (["--from", "2.0"], "--from 2.0 is not below --to 2.0"),
        (["--from", "1.0", "--max-trials", "0"], "--max-trials must be at least 1"),
    ])
    func refusesWhatCannotBeTested(arguments: [String], message: String) throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  \"2.0\": [{name: exec, with: {command: ['true']}}]\n", to: "milepost.yaml")
        let result = try work.milepost.run(["test", "--to", "2.0"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// A child run of a trial records its commit points where `MILEPOST_CRASH_TRIAL` says, and is
    /// not warned about the variables of the trial's sandbox, which milepost sets itself; its
    /// steps' processes do not inherit the variable (a `milepost` they start would trap too).
    @Test func aTrialsRunRecordsItsCommitPointsWithoutWarningAboutTheTestsVariables() throws {
        let work = try WorkDirectory()
        try work.write(
            "migrations:\n  \"2.0\": [{name: exec, id: mark, with: {command: [sh, -c, 'echo \"[$MILEPOST_CRASH_TRIAL]\" > seen']}}]\n",
            to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = [
            "MILEPOST_CRASH_TRIAL": "record " + work.path + "/points", "MILEPOST_TEST_DIR": work.path,
            "MILEPOST_TEST_FROM": "", "MILEPOST_TEST_STORE": ".milepost",
        ]
        let result = try milepost.run("run", "--to", "2.0")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("is set, but"), "\(result.stderr)")
        #expect(try work.read("points").split(separator: "\n") == [
            "run-started 1", "step-started 1 2.0/mark", "process-group 1 2.0/mark", "step-ended 1 2.0/mark", "run-finished 1",
        ])
        #expect(try work.read("seen") == "[]\n")
    }

    @Test func aRunRefusesAMalformedCrashTrialVariable() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  \"2.0\": [{name: exec, with: {command: ['true']}}]\n", to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment["MILEPOST_CRASH_TRIAL"] = "kill somewhere"
        let result = try milepost.run("run", "--to", "2.0")
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("MILEPOST_CRASH_TRIAL is 'kill somewhere'"), "\(result.stderr)")
        #expect(!work.exists(".milepost"))
    }
}
