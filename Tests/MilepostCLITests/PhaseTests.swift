import Foundation
import MilepostTestSupport
import Testing

/// Phases (`phase: contract`, `phase: background`) and the compatibility floor, run as the built
/// binary: each step once, whichever run runs it.
@Suite struct PhaseTests {
    /// Release 3.0 adds a column; 3.1 writes both formats (an expansion) and drops the old column
    /// (a contract step); 3.2 is the next release.
    static let releases = """
        app: shop
        migrations:
          "3.0": [{name: exec, id: add-column, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
          "3.1":
            - {name: exec, id: write-both, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - {name: exec, id: drop-old, phase: contract, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
          "3.2": [{name: exec, id: next, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
        """

    static func ran(_ work: WorkDirectory) throws -> [String] {
        work.exists("ran.txt") ? try work.read("ran.txt").split(separator: "\n").map(String.init) : []
    }

    static func json(_ result: MilepostBinary.Result) throws -> JSONValue { try JSONValue(parsing: result.stdout) }

    @Test func aPlainRunLeavesTheContractStepWaitingAndRunPhaseContractRunsItOnce() throws {
        let work = try WorkDirectory()
        try work.write(Self.releases, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "3.0").status == 0)
        let rollout = try work.milepost.run("run", "--to", "3.1")
        #expect(rollout.status == 0, "\(rollout.stderr)")
        #expect(try Self.ran(work) == ["3.0/add-column", "3.1/write-both"])

        let plan = try Self.json(try work.milepost.run("plan", "--to", "3.1", "--format", "json"))
        let dropOld = plan["steps"]?.array?.first { $0["id"]?.string == "3.1/drop-old" }
        #expect(dropOld?["status"]?.string == "waiting")
        #expect(dropOld?["phase"]?.string == "contract")
        #expect(plan["waiting"]?.array?.map(\.string) == ["3.1/drop-old"])
        #expect(plan["pending"]?.array == [])
        let text = try work.milepost.run("plan", "--to", "3.1")
        #expect(text.stdout.contains("waiting      3.1/drop-old    [contract] phase: contract: waits for the rollout"), "\(text.stdout)")
        // Ready: the release starts; the contract step waits for the rollout.
        #expect(try work.milepost.run("status", "--check", "--to", "3.1").status == 0)
        #expect(try work.milepost.run("status", "--check", "--require", "contract", "--to", "3.1").status == 4)
        // A replica restarting during the rollout runs nothing.
        let restart = try work.milepost.run("run", "--to", "3.1")
        #expect(restart.status == 0)
        #expect(restart.stderr.contains("up to date at 3.1"), "\(restart.stderr)")

        let contract = try work.milepost.run("run", "--to", "3.1", "--phase", "contract")
        #expect(contract.status == 0, "\(contract.stderr)")
        #expect(try Self.ran(work) == ["3.0/add-column", "3.1/write-both", "3.1/drop-old"])
        #expect(try work.milepost.run("run", "--to", "3.1", "--phase", "contract").status == 0)
        #expect(try work.milepost.run("run", "--to", "3.2").status == 0)
        #expect(try Self.ran(work) == ["3.0/add-column", "3.1/write-both", "3.1/drop-old", "3.2/next"])
        #expect(try work.milepost.run("status", "--check", "--require", "contract", "--to", "3.2").status == 0)
    }

    @Test func theNextReleasesRunRunsTheWaitingContractStepBeforeItsOwnSteps() throws {
        let work = try WorkDirectory()
        try work.write(Self.releases, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "3.0").status == 0)
        #expect(try work.milepost.run("run", "--to", "3.1").status == 0)
        let dryRun = try work.milepost.run("run", "--to", "3.2", "--dry-run")
        #expect(dryRun.stdout == "  3.1/drop-old\n  3.2/next\n", "\(dryRun.stdout)")
        let next = try work.milepost.run("run", "--to", "3.2")
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try Self.ran(work) == ["3.0/add-column", "3.1/write-both", "3.1/drop-old", "3.2/next"])
        #expect(try work.milepost.run("run", "--to", "3.2", "--phase", "contract").status == 0)
        #expect(try Self.ran(work).count == 4)
    }

    @Test func anOlderReleaseStartsWhileAtOrAboveTheFloorAndIsRefusedOnceTheContractStepRan() throws {
        let work = try WorkDirectory()
        try work.write(Self.releases, to: "milepost.yaml")
        // The release before: its own, older manifest (no phases), beside the new one on the same store.
        try work.write("""
            app: shop
            migrations:
              "3.0": [{name: exec, id: add-column, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
            """, to: "old.yaml")
        #expect(try work.milepost.run("run", "--to", "3.0").status == 0)
        #expect(try work.milepost.run("run", "--to", "3.1").status == 0)

        let rollback = try work.milepost.run("run", "--manifest", "old.yaml", "--store", ".milepost", "--to", "3.0")
        #expect(rollback.status == 0, "\(rollback.stderr)")
        #expect(rollback.stderr.contains("warning: shop 3.0 is below the stored version 3.1, and at or above the store's compatibility floor 3.0: this release starts; nothing ran"), "\(rollback.stderr)")
        let json = try Self.json(try work.milepost.run("run", "--manifest", "old.yaml", "--store", ".milepost", "--to", "3.0", "--format", "json"))
        #expect(json["outcome"]?.string == "downgrade-compatible")
        #expect(json["floor"]?["version"]?.string == "3.0")
        let finished = try ReliabilityFixture.journal(in: work).last { $0["event"] as? String == "run-finished" }
        #expect(finished?["outcome"] as? String == "downgrade-compatible")
        #expect(try Self.ran(work) == ["3.0/add-column", "3.1/write-both"])

        #expect(try work.milepost.run("run", "--to", "3.1", "--phase", "contract").status == 0)
        let refused = try work.milepost.run("run", "--manifest", "old.yaml", "--store", ".milepost", "--to", "3.0")
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("3.0 is below the store's compatibility floor 3.1 (stored version 3.1); the contract step 3.1/drop-old made older releases incompatible"), "\(refused.stderr)")
        let refusedRecord = try ReliabilityFixture.journal(in: work).last { $0["event"] as? String == "run-finished" }
        #expect(refusedRecord?["outcome"] as? String == "downgrade-refused")
        #expect((refusedRecord?["error"] as? String)?.contains("3.1/drop-old") == true)
        #expect(try work.milepost.run("run", "--manifest", "old.yaml", "--store", ".milepost", "--to", "3.0", "--allow-downgrade").status == 0)
        // The stored state says so, for any release to read.
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect((state["floor"] as? [String: Any])?["step"] as? String == "3.1/drop-old")
    }

    @Test func aStoreWithoutPhasesKeepsRefusingAnyDowngrade() throws {
        let work = try WorkDirectory()
        try work.write(ReliabilityFixture.recordingManifest(["1.0/a", "2.0/b"]), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        let older = try work.milepost.run("run", "--to", "1.0")
        #expect(older.status == 3)
        #expect(older.stderr.contains("1.0 is below the stored version 2.0, and the store keeps no compatibility with older releases"), "\(older.stderr)")
    }

    // MARK: - Background

    /// `ItemScript`'s 100 items as a background step at 2.1, beside a pre-start step.
    static let background = """
        migrations:
          "2.1":
            - {name: exec, id: ready, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
            - name: exec
              id: items
              phase: background
              resumable: true
              with: {command: [sh, -c, '\(ItemScript.text)']}
        """

    @Test func aBackgroundStepKilledMidwayResumesAtItsCursorAndNeverDelaysThePreStartRun() throws {
        let work = try WorkDirectory()
        try work.write(Self.background, to: "milepost.yaml")
        let preStart = try work.milepost.run("run", "--to", "2.1")
        #expect(preStart.status == 0, "\(preStart.stderr)")
        #expect(try Self.ran(work) == ["2.1/ready"])
        #expect(ItemScript.processed(in: work.path).isEmpty)
        #expect(try work.milepost.run("status", "--check", "--to", "2.1").status == 0)
        #expect(try work.milepost.run("status", "--check", "--require", "background", "--to", "2.1").status == 4)

        try work.write("", to: "hold")
        let (runner, stdout, stderr) = try work.milepost.start(["run", "--to", "2.1", "--phase", "background"])
        #expect(ReliabilityFixture.eventually {
            ItemScript.processed(in: work.path).count == ItemScript.holdAfter
                && ResumableCursorTests.storedCursor(work) == String(ItemScript.lastCursor)
        })
        // While the background runner holds the lock, a replica's pre-start run starts at once.
        let beside = try work.milepost.run("run", "--to", "2.1", "--lock-timeout", "2s")
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(beside.stderr.contains("up to date at 2.1"), "\(beside.stderr)")
        #expect(try work.milepost.run("status", "--check", "--to", "2.1").status == 0)
        let status = try Self.json(try work.milepost.run("status", "--to", "2.1", "--format", "json"))
        #expect(status["verdict"]?.string == "running", "\(status)")

        kill(runner.processIdentifier, SIGKILL)
        kill(-(try ReliabilityFixture.pid(in: work, "step.pid")), SIGKILL)
        _ = MilepostBinary.finish(runner, stdout, stderr, within: .seconds(30))
        try FileManager.default.removeItem(atPath: work.path + "/hold")

        // Interrupted: the pre-start run still goes on, the background one resumes.
        let restart = try work.milepost.run("run", "--to", "2.1")
        #expect(restart.status == 0, "\(restart.stderr)")
        #expect(try work.milepost.run("status", "--check", "--to", "2.1").status == 0)
        #expect(try work.milepost.run("status", "--check", "--require", "background", "--to", "2.1").status == 4)
        let resumed = try work.milepost.run("run", "--to", "2.1", "--phase", "background")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try ResumableCursorTests.starts(work) == [0, ItemScript.lastCursor])
        let processed = ItemScript.processed(in: work.path)
        for item in 1...100 {
            #expect(processed.count { $0 == item } == ItemScript.timesProcessedAfterResume(item), "item \(item)")
        }
        #expect(try work.milepost.run("status", "--check", "--require", "background", "--to", "2.1").status == 0)
        #expect(try Self.ran(work) == ["2.1/ready"])
        let started = try ReliabilityFixture.journal(in: work).filter { $0["event"] as? String == "step-started" && $0["step"] as? String == "2.1/items" }
        #expect(started.map { $0["cursor"] as? String } == [nil, String(ItemScript.lastCursor)])
    }

    @Test func aRequiredStopWaitsForItsBackgroundStepsThenLetsTheRunThrough() throws {
        let work = try WorkDirectory()
        try work.write("""
            stops: ["2.1"]
            migrations:
              "2.1":
                - {name: exec, id: backfill, phase: background, resumable: true, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}
              "3.0": [{name: exec, id: later, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
            """, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        let refused = try work.milepost.run("run", "--to", "3.0")
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("2.1 is a required stop, and its background steps have not finished: 2.1/backfill: let the background runner finish them ('run --to 2.1 --phase background'), then run this one to 3.0"), "\(refused.stderr)")
        #expect(try Self.ran(work).isEmpty)
        let json = try Self.json(try work.milepost.run("run", "--to", "3.0", "--format", "json"))
        #expect(json["required_stop"]?["kind"]?.string == "background")
        #expect(json["required_stop"]?["steps"]?.array?.map(\.string) == ["2.1/backfill"])
        #expect(try work.milepost.run("run", "--to", "2.1", "--phase", "background").status == 0)
        let through = try work.milepost.run("run", "--to", "3.0")
        #expect(through.status == 0, "\(through.stderr)")
        #expect(try Self.ran(work) == ["2.1/backfill", "3.0/later"])
    }

    /// While the background runner holds the lock for hours, a start whose answer the lock cannot
    /// change gives it at once from the state read without the lock, and writes nothing: an older
    /// release at or above the floor starts (a rollback, an old pod restarting mid-rollout), a
    /// release past a required stop is sent back to it (exit 5). With the lock free, the same
    /// answers are journaled again.
    @Test func aRollbackAndARequiredStopAnswerAtOnceWhileABackgroundStepRuns() throws {
        let work = try WorkDirectory()
        defer { work.killOrphanedStep() }
        try work.write("""
            stops: ["2.1"]
            migrations:
              "2.0":
                - {name: exec, id: first, with: {command: ['true']}}
                - {name: exec, id: drop-old, phase: contract, with: {command: ['true']}}
              "2.1":
                - {name: exec, id: ready, with: {command: ['true']}}
                - {name: exec, id: backfill, phase: background, idempotent: true, with: {command: [sh, -c, 'echo $$ > step.pid; touch started; exec sleep 300']}}
              "3.0": [{name: exec, id: later, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
            """, to: "milepost.yaml")
        // A fresh install runs the contract step too: the floor is 2.0.
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        let (runner, stdout, stderr) = try work.milepost.start(["run", "--to", "2.1", "--phase", "background"])
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        let journaled = try ReliabilityFixture.journal(in: work).count

        // Exit 75 if either waited for the lock.
        let rollback = try work.milepost.run("run", "--to", "2.0", "--lock-timeout", "1s")
        #expect(rollback.status == 0, "\(rollback.stderr)")
        let json = try Self.json(try work.milepost.run("run", "--to", "2.0", "--lock-timeout", "1s", "--format", "json"))
        #expect(json["outcome"]?.string == "downgrade-compatible", "\(json)")
        let stopped = try work.milepost.run("run", "--to", "3.0", "--lock-timeout", "1s")
        #expect(stopped.status == 5, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("2.1 is a required stop, and its background steps have not finished: 2.1/backfill"), "\(stopped.stderr)")
        #expect(try ReliabilityFixture.journal(in: work).count == journaled)
        #expect(!work.exists("ran.txt"))

        kill(runner.processIdentifier, SIGKILL)
        kill(-(try ReliabilityFixture.pid(in: work, "step.pid")), SIGKILL)
        _ = MilepostBinary.finish(runner, stdout, stderr, within: .seconds(30))
        // The lock free, the rollback takes it and journals its answer.
        #expect(try work.milepost.run("run", "--to", "2.0", "--lock-timeout", "1s").status == 0)
        let finished = try ReliabilityFixture.journal(in: work).last
        #expect(finished?["event"] as? String == "run-finished" && finished?["outcome"] as? String == "downgrade-compatible", "\(String(describing: finished))")
    }

    // MARK: - Validation

    @Test func validateChecksPhaseAndScope() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: a, phase: contrat, with: {command: [true]}}
                - {name: exec, id: b, phase: contract, scope: host, with: {command: [true]}}
                - {name: exec, id: c, scope: everywhere, with: {command: [true]}}
                - {name: exec, id: d, scope: host, repeat: on-change, with: {command: [true]}}
            """, to: "milepost.yaml")
        let invalid = try work.milepost.run("validate")
        #expect(invalid.status == 65)
        #expect(invalid.stderr.contains("invalid phase 'contrat': expected pre-start, contract, background"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("did you mean 'contract'?"))
        #expect(invalid.stderr.contains("a 'scope: host' step cannot have 'phase: contract'"))
        #expect(invalid.stderr.contains("invalid scope 'everywhere': expected fleet, host"))
        #expect(invalid.stderr.contains("a 'scope: host' step cannot be repeatable ('repeat: on-change')"), "\(invalid.stderr)")

        try work.write("""
            migrations:
              "1.0": [{name: exec, id: long, phase: background, with: {command: [true]}}]
            """, to: "milepost.yaml")
        let warned = try work.milepost.run("validate")
        #expect(warned.status == 0)
        #expect(warned.stderr.contains("a 'phase: background' step should be resumable"), "\(warned.stderr)")
        #expect(try work.milepost.run("validate", "--strict").status == 65)
    }

    /// A failed contract or background step: `status` advised `milepost run --to V`, which said "up
    /// to date" and left the step failed. The advised command carries the step's `--phase`, and run
    /// as printed it resumes the step (issue 42, item 13).
    @Test(arguments: ["contract", "background"])
    func theAdviceAfterAFailedStepOfAPhaseResumesItAsPrinted(phase: String) throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "3.0": [{name: exec, id: add-column, with: {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}}]
              "3.1":
                - {name: exec, id: late, phase: \(phase), resumable: true, with: {command: [sh, -c, 'test ! -e broken && echo "$MILEPOST_STEP" >> ran.txt']}}
            """, to: "milepost.yaml")
        try work.write("", to: "broken")
        #expect(try work.milepost.run("run", "--to", "3.0").status == 0)
        #expect(try work.milepost.run("run", "--to", "3.1").status == 0)
        #expect(try work.milepost.run("run", "--to", "3.1", "--phase", phase).status == 1)

        let text = try work.milepost.run("status", "--to", "3.1")
        #expect(text.stdout.contains("`milepost run --to 3.1 --phase \(phase)`  once the cause is fixed: it resumes at 3.1/late"), "\(text.stdout)")
        // JSON's next is structured (issue 43): the command as its arguments, and when.
        let json = try JSONValue(parsing: try work.milepost.run("status", "--to", "3.1", "--format", "json").stdout)
        let first = json["next"]?.array?.first
        #expect(first?["command"]?.array?.compactMap(\.string) == ["milepost", "run", "--to", "3.1", "--phase", phase], "\(json)")
        #expect(first?["when"]?.string == "once the cause is fixed: it resumes at 3.1/late", "\(json)")
        let advised = try work.milepost.run("status", "--to", "3.1").stdout
        let command = try #require(advised.split(separator: "`").first { $0.hasPrefix("milepost run ") })
        try FileManager.default.removeItem(atPath: work.path + "/broken")
        let resumed = try work.milepost.run(command.split(separator: " ").dropFirst().map(String.init))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Self.ran(work) == ["3.0/add-column", "3.1/late"])
        #expect(try work.milepost.run("status", "--check", "--require", phase, "--to", "3.1").status == 0)
    }
}

