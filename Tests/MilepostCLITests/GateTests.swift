import Foundation
import MilepostTestSupport
import Testing

/// The gates agree with `run` (issue 43), run as the built binary on the file store: a rollback
/// below the compatibility floor is refused alike by `run`, `wait` and `status --check`; a newer
/// release's steps are not orphans; `plan --from` plans what a store at that version runs; a
/// blocked deploy says what blocks it; the contract step waits for the background steps it is
/// ordered after.
@Suite struct GateTests {
    /// 1.0 adds a column; 2.0 adds its replacement and drops the old one in a contract step.
    static let release1 = """
        app: shop
        migrations:
          "1.0": [{name: exec, id: add-nickname, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
        """
    static let release2 = release1 + """

          "2.0":
            - {name: exec, id: add-display-name, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: drop-nickname, phase: contract, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
        """
    /// What run, wait and status say alike below the floor.
    static let refusal = "1.0 is below the store's compatibility floor 2.0 (stored version 2.0); "
        + "the contract step 2.0/drop-nickname made older releases incompatible"

    /// A store at 2.0 whose contract step ran when `contracted`, with 1.0's manifest in `v1.yaml`
    /// and 2.0's in `v2.yaml`.
    static func store(contracted: Bool) throws -> WorkDirectory {
        let work = try WorkDirectory()
        try work.write(release1, to: "v1.yaml")
        try work.write(release2, to: "v2.yaml")
        for arguments in [["--manifest", "v1.yaml", "--to", "1.0"], ["--manifest", "v2.yaml", "--to", "2.0"]]
            + (contracted ? [["--manifest", "v2.yaml", "--to", "2.0", "--phase", "contract"]] : []) {
            let run = try work.milepost.run(["run", "--store", "s"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
        }
        return work
    }

    @Test func aRollbackAboveTheFloorStartsThroughEveryGate() throws {
        let work = try Self.store(contracted: false)
        let run = try work.milepost.run("run", "--store", "s", "--manifest", "v1.yaml", "--to", "1.0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("at or above the store's compatibility floor 1.0"), "\(run.stderr)")
        #expect(try work.milepost.run("wait", "--store", "s", "--to", "1.0", "--timeout", "10s").status == 0)
        #expect(try work.milepost.run("status", "--store", "s", "--manifest", "v1.yaml", "--to", "1.0", "--check").status == 0)
    }

    /// The rollback: 1.0's binary on a store whose contract step 2.0/drop-nickname ran.
    @Test func aRollbackBelowTheFloorIsRefusedByRunWaitAndStatusAlike() throws {
        let work = try Self.store(contracted: true)
        let run = try work.milepost.run("run", "--store", "s", "--manifest", "v1.yaml", "--to", "1.0")
        let wait = try work.milepost.run("wait", "--store", "s", "--to", "1.0", "--timeout", "60s")
        let check = try work.milepost.run("status", "--store", "s", "--manifest", "v1.yaml", "--to", "1.0", "--check")
        for (command, result, text) in [("run", run, run.stderr), ("wait", wait, wait.stderr), ("status --check", check, check.stdout)] {
            #expect(result.status == 3, "\(command): \(result.stderr)")
            #expect(text.contains(Self.refusal), "\(command): \(text)")
            #expect(text.contains("roll forward instead: deploy 2.0 or a later release"), "\(command): \(text)")
            #expect(!text.contains("pass --allow-downgrade"), "\(command): \(text)")
        }
        #expect(check.stdout.hasPrefix("shop: DOWNGRADE-REFUSED 1.0 may not start on this store"), "\(check.stdout)")
        // Without --check status reports it and exits 0; the verdict is the same word.
        let status = try work.milepost.run("status", "--store", "s", "--to", "1.0", "--format", "json")
        #expect(status.status == 0, "\(status.stderr)")
        let document = try JSONValue(parsing: status.stdout)
        #expect(document["verdict"]?.string == "downgrade-refused")
        #expect(document["headline"]?.string?.contains(Self.refusal) == true)
        let waited = try JSONValue(parsing: try work.milepost.run("wait", "--store", "s", "--to", "1.0", "--format", "json").stdout)
        #expect(waited["outcome"]?.string == "downgrade-refused")
        #expect(waited["exit_code"] == .integer(3))
        #expect(waited["floor"]?["step"]?.string == "2.0/drop-nickname")
        // --allow-downgrade is still what it was: it lets the old release start, and says so.
        let allowed = try work.milepost.run("run", "--store", "s", "--manifest", "v1.yaml", "--to", "1.0", "--allow-downgrade")
        #expect(allowed.status == 0, "\(allowed.stderr)")
        // At or above the floor every gate lets 2.0 start.
        #expect(try work.milepost.run("wait", "--store", "s", "--to", "2.0", "--timeout", "10s").status == 0)
    }

    /// 1.0's manifest on the store 2.0 ran: its steps are a newer release's, not orphans.
    @Test func aNewerReleasesStepsAreNotOrphans() throws {
        let work = try Self.store(contracted: true)
        let status = try work.milepost.run("status", "--store", "s", "--manifest", "v1.yaml")
        #expect(status.stdout.contains("newer       2.0/drop-nickname: completed at"), "\(status.stdout)")
        #expect(!status.stdout.contains("orphan"), "\(status.stdout)")
        #expect(!status.stdout.contains("replaces"), "\(status.stdout)")
        let document = try JSONValue(parsing: try work.milepost.run("status", "--store", "s", "--manifest", "v1.yaml", "--format", "json").stdout)
        #expect(document["newer"]?.array?.compactMap { $0["id"]?.string } == ["2.0/add-display-name", "2.0/drop-nickname"])
        #expect(document["orphans"] == nil)
        let validate = try work.milepost.run("validate", "--store", "s", "--manifest", "v1.yaml")
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.contains("this store ran a newer release than this manifest: 2 steps of it completed here"), "\(validate.stderr)")
        #expect(!validate.stderr.contains("replaces: "), "\(validate.stderr)")
        // A step the manifest lost below its newest threshold is still an orphan.
        try work.write(Self.release2.replacingOccurrences(of: "add-display-name", with: "add-full-name"), to: "v2.yaml")
        let orphan = try work.milepost.run("status", "--store", "s", "--manifest", "v2.yaml")
        #expect(orphan.stdout.contains("orphan      2.0/add-display-name"), "\(orphan.stdout)")
    }

    /// `plan --from 2.0` plans what a store that reached 2.0 by runs runs: 2.0's contract step,
    /// which its pre-start run passed, and nothing of 1.0 again; and the PR summary says so.
    @Test func planFromAVersionPlansWhatAStoreAtThatVersionRuns() throws {
        let work = try Self.store(contracted: false)
        let release23 = Self.release2 + """

              "2.3": [{name: exec, id: add-email, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
            """
        try work.write(release23, to: "v23.yaml")
        let given = try JSONValue(parsing: try work.milepost.run(
            "plan", "--manifest", "v23.yaml", "--from", "2.0", "--to", "2.3", "--format", "json").stdout)
        let stored = try JSONValue(parsing: try work.milepost.run(
            "plan", "--manifest", "v23.yaml", "--store", "s", "--to", "2.3", "--format", "json").stdout)
        #expect(given["pending"]?.array?.compactMap(\.string) == ["2.0/drop-nickname", "2.3/add-email"])
        #expect(given["pending"] == stored["pending"])
        #expect(given["steps"]?.array?.map { $0["status"]?.string } == stored["steps"]?.array?.map { $0["status"]?.string })
        let markdown = try work.milepost.run("plan", "--manifest", "v23.yaml", "--from", "2.0", "--to", "2.3", "--format", "markdown")
        #expect(markdown.stdout.contains("From `2.0` (given) to `2.3`: 2 steps to run."), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("| `2.0/drop-nickname` |  | none | 0 | **no** | phase: contract, passed by the run to 2.0"), "\(markdown.stdout)")
        #expect(!markdown.stdout.contains("⚠️"), "\(markdown.stdout)")
        // The store itself runs what was planned.
        #expect(try work.milepost.run("run", "--manifest", "v23.yaml", "--store", "s", "--to", "2.3").status == 0)
        #expect(try work.read("ran.txt").split(separator: "\n").suffix(2) == ["2.0/drop-nickname", "2.3/add-email"])
    }

    /// A background step that reports 42/100, says it started, and sleeps until killed.
    static let backgroundRelease = """
        app: shop
        migrations:
          "1.0":
            - {name: exec, id: add-email, with: {command: ['true']}}
            - {name: exec, id: backfill, phase: background, idempotent: true, with: {command: [sh, -c, 'echo "progress 42/100 backfilling" >&3; echo $$ > step.pid; touch started; exec sleep 300']}}
          "1.1": [{name: exec, id: next, with: {command: ['true']}}]
        """

    /// A pre-start run that gives up on the lock names the background run holding it: its step,
    /// phase, attempt and progress, and what to do.
    @Test func aBlockedDeploySaysWhatHoldsTheLock() throws {
        let work = try WorkDirectory()
        defer { work.killOrphanedStep() }
        try work.write(Self.backgroundRelease, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        let (background, _, _) = try work.milepost.start(["run", "--to", "1.0", "--phase", "background", "--progress-interval", "10ms"])
        defer { background.terminate() }
        try Self.waitFor("started", in: work)
        // The progress report is written right after the step starts.
        Thread.sleep(forTimeInterval: 0.5)
        let blocked = try work.milepost.run("run", "--to", "1.1", "--lock-timeout", "1s")
        #expect(blocked.status == 75, "\(blocked.stderr)")
        #expect(blocked.stderr.contains("it is running the background step 1.0/backfill (attempt 1, since"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("its last report: 42/100 (42%)"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("stop the background run (SIGTERM)"), "\(blocked.stderr)")
        // A replica with nothing to run does not wait for it.
        #expect(try work.milepost.run("run", "--to", "1.0", "--lock-timeout", "1s").status == 0)
    }

    /// The 2.0 contract step drops what the background step reads: `after: background` makes it wait.
    static let orderedRelease = """
        app: shop
        migrations:
          "2.0":
            - {name: exec, id: add-email, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: drop-old-email, phase: contract, after: background, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: backfill, phase: background, idempotent: true, with: {command: [sh, -c, 'test -e go && echo "$MILEPOST_STEP" >> ran.txt']}}
        """

    @Test func aContractStepOrderedAfterTheBackgroundStepsWaitsForThem() throws {
        let work = try WorkDirectory()
        try work.write(Self.orderedRelease, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        let status = try work.milepost.run("status", "--to", "2.0")
        #expect(status.stdout.contains("`milepost run --to 2.0 --phase contract`  once no release older than 2.0 runs (after the rollout): "
            + "runs 2.0/drop-old-email; 2.0/drop-old-email after the background steps (after: background)"), "\(status.stdout)")
        #expect(status.stdout.contains("`milepost run --to 2.0 --phase background`  in the background runner: runs 2.0/backfill"), "\(status.stdout)")
        let next = try JSONValue(parsing: try work.milepost.run("status", "--to", "2.0", "--format", "json").stdout)["next"]?.array ?? []
        #expect(next.contains { $0["command"]?.array?.compactMap(\.string) == ["milepost", "run", "--to", "2.0", "--phase", "background"] })

        // No background run: the contract run gives up after its lock timeout, and drops nothing.
        let early = try work.milepost.run("run", "--to", "2.0", "--phase", "contract", "--lock-timeout", "2s")
        #expect(early.status == 75, "\(early.stderr)")
        #expect(early.stderr.contains("2.0/drop-old-email is ordered after the background step 2.0/backfill (after: background), "
            + "still unfinished after 2s"), "\(early.stderr)")
        #expect(try work.read("ran.txt") == "2.0/add-email\n")

        // Started together, the contract run waits for the background run to finish the backfill.
        let (contract, stdout, stderr) = try work.milepost.start(["run", "--to", "2.0", "--phase", "contract", "--lock-timeout", "60s"])
        Thread.sleep(forTimeInterval: 1.5)
        try work.write("", to: "go")
        #expect(try work.milepost.run("run", "--to", "2.0", "--phase", "background").status == 0)
        let contracted = MilepostBinary.finish(contract, stdout, stderr)
        #expect(contracted.status == 0, "\(contracted.stderr)")
        #expect(try work.read("ran.txt") == "2.0/add-email\n2.0/backfill\n2.0/drop-old-email\n")
    }

    @Test func aContractStepOrderedAfterAnotherPhaseIsAnError() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: a, phase: contract, after: contract, with: {command: ['true']}}
                - {name: exec, id: b, after: background, with: {command: ['true']}}
                - {name: exec, id: c, phase: contract, after: backgrund, with: {command: ['true']}}
            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 65)
        #expect(result.stderr.contains("'after: contract' orders nothing"), "\(result.stderr)")
        #expect(result.stderr.contains("'after: background' orders a contract step after the background steps; this step has 'phase: pre-start'"), "\(result.stderr)")
        #expect(result.stderr.contains("did you mean 'background'?"), "\(result.stderr)")
    }

    /// A misspelt setting is warned about by name, on the full path and where the fast path would answer.
    @Test func anUnknownMilepostVariableIsWarnedAboutWithTheClosestName() throws {
        let work = try WorkDirectory()
        try work.write(Self.release2, to: "milepost.yaml")
        var binary = work.milepost
        binary.environment = ["MILEPOST_PAHSE": "contract", "MILEPOST_BOGUS": "1", "MILEPOST_STORE": "s"]
        for _ in 0..<2 {  // the second run is up to date: the fast path leaves it to the full path, which warns
            let run = try binary.run("run", "--to", "2.0")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains(
                "milepost: warning: MILEPOST_PAHSE is set, but milepost reads no such variable: it is ignored; did you mean MILEPOST_PHASE?"),
                "\(run.stderr)")
            #expect(run.stderr.contains("milepost: warning: MILEPOST_BOGUS is set, but milepost reads no such variable: it is ignored\n"), "\(run.stderr)")
            #expect(!run.stderr.contains("MILEPOST_STORE is set"), "\(run.stderr)")
        }
        #expect(try binary.run("status").stderr.contains("MILEPOST_PAHSE is set"))
    }

    /// A store that stores nothing is said to be new, and `--existing-store` refuses it, creating nothing.
    @Test func aNewStoreIsSaidToBeNewAndExistingStoreRefusesIt() throws {
        let work = try WorkDirectory()
        try work.write(Self.release2, to: "milepost.yaml")
        let status = try work.milepost.run("status", "--store", "typo")
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.hasPrefix("shop: NEW a new store: nothing is stored in typo yet"), "\(status.stdout)")
        #expect(status.stdout.contains("if the store should exist, check --store (or MILEPOST_STORE)"), "\(status.stdout)")
        #expect(!status.stdout.contains("nothing has run"), "\(status.stdout)")
        let wait = try work.milepost.run("wait", "--store", "typo", "--to", "2.0", "--timeout", "300ms")
        #expect(wait.status == 75, "\(wait.stderr)")
        #expect(wait.stderr.contains("nothing is stored in this store yet, waiting for 2.0; if it should exist, check --store (or MILEPOST_STORE) for a typo"), "\(wait.stderr)")
        let check = try work.milepost.run("status", "--store", "typo", "--to", "2.0", "--check")
        #expect(check.status == 4, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("shop: PENDING a new store, nothing stored yet: 3 steps to run from 0 to 2.0"), "\(check.stdout)")

        for (arguments, environment) in [(["--existing-store"], [:]), ([], ["MILEPOST_EXISTING_STORE": "1"])] {
            var binary = work.milepost
            binary.environment = environment
            let refused = try binary.run(["run", "--store", "typo", "--to", "2.0"] + arguments)
            #expect(refused.status == 69, "\(refused.stderr)")
            #expect(refused.stderr.contains("nothing is stored in typo: it is a new store, and this run may only use an existing one; nothing was created"), "\(refused.stderr)")
            #expect(refused.stderr.contains("check --store (or MILEPOST_STORE) for a typo"), "\(refused.stderr)")
            #expect(!work.exists("typo"))
            #expect(!work.exists("ran.txt"))
        }
        #expect(try work.milepost.run("run", "--store", "s", "--to", "2.0").status == 0)
        for _ in 0..<2 {  // planned, then the fast path
            #expect(try work.milepost.run("run", "--store", "s", "--to", "2.0", "--existing-store").status == 0)
        }
    }

    /// `run --format github` puts a failed step's annotation on its line of the manifest.
    @Test func aGitHubAnnotationNamesTheManifestAndTheStepsLine() throws {
        let work = try WorkDirectory()
        try work.write("""
            app: shop
            migrations:
              "1.0":
                - {name: exec, id: ok, with: {command: ['true']}}
                - {name: exec, id: breaks, with: {command: [sh, -c, 'echo boom >&2; exit 3']}}
            """, to: "app.yaml")
        let result = try work.milepost.run("run", "--manifest", "app.yaml", "--to", "1.0", "--format", "github")
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("::error file=app.yaml,line=5,title=milepost%3A 1.0/breaks failed::"), "\(result.stdout)")
        let status = try work.milepost.run("status", "--manifest", "app.yaml", "--format", "github")
        #expect(status.stdout.contains("::error file=app.yaml,line=5,title=milepost%3A 1.0/breaks failed::"), "\(status.stdout)")
    }

    static func waitFor(_ file: String, in work: WorkDirectory) throws {
        let deadline = Date().addingTimeInterval(60)
        while !work.exists(file) {
            guard Date() < deadline else { throw CocoaError(.fileNoSuchFile) }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }
}
