import Foundation
import Testing

/// `milepost revert`, run as the built binary: reverts newest first, a `kill -9` in the middle of a
/// revert, the refusal when a step has no revert, and a run after a revert.
@Suite struct RevertTests {
    /// `1.0/a`, `2.0/b`, `2.0/c`: each appends its id to `ran.txt`, and its revert `undo-ID`. The
    /// revert of `b` first touches `b-reverting`; while the file `hang` exists it then hangs (its pid
    /// in `step.pid`, `started` touched) instead of finishing.
    static let manifest = """
        app: demo
        migrations:
          "1.0":
            - name: exec
              id: a
              with: {command: [sh, -c, 'echo a >> ran.txt']}
              revert: {command: [sh, -c, 'echo undo-a >> ran.txt']}
          "2.0":
            - name: exec
              id: b
              with: {command: [sh, -c, 'echo b >> ran.txt']}
              revert: {command: [sh, -c, 'echo x >> b-reverting; if [ -e hang ]; then echo $$ > step.pid; touch started; exec sleep 300; fi; echo undo-b >> ran.txt']}
            - name: exec
              id: c
              with: {command: [sh, -c, 'echo c >> ran.txt']}
              revert: {command: [sh, -c, 'echo undo-c >> ran.txt']}
        """

    static func ran(_ work: WorkDirectory) throws -> [String] { try LateStepTests.ran(work) }

    static func state(_ work: WorkDirectory) throws -> JSONValue { try JSONValue(parsing: try work.read(".milepost/state.json")) }

    /// The journal's `revert-*` records, as `event step`.
    static func reverts(_ work: WorkDirectory) throws -> [String] {
        try work.read(".milepost/journal.jsonl").split(separator: "\n").compactMap { line in
            let record = try JSONValue(parsing: String(line))
            guard let event = record["event"]?.string, event.hasPrefix("revert-") else { return nil }
            return "\(event) \(record["step"]?.string ?? "")"
        }
    }

    static func ranToTwo() throws -> WorkDirectory {
        let work = try WorkDirectory()
        try work.write(manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        return work
    }

    @Test func revertsRunNewestFirstThenTheTargetIsStoredAndARunRedoesTheSteps() throws {
        let work = try Self.ranToTwo()
        let dry = try work.milepost.run("revert", "--to", "0.5", "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.stdout == "  2.0/c\n  2.0/b\n  1.0/a\n")
        #expect(try Self.ran(work) == ["a", "b", "c"])

        let revert = try work.milepost.run("revert", "--to", "1.0")
        #expect(revert.status == 0)
        #expect(revert.stderr.contains("milepost: demo 2.0 → 1.0: 2 steps reverted (run "))
        #expect(try Self.ran(work) == ["a", "b", "c", "undo-c", "undo-b"])
        let state = try Self.state(work)
        #expect(state["version"]?.string == "1.0")
        #expect(state["completed"]?.array?.map { $0["id"]?.string } == ["1.0/a"])
        #expect(state["reverting"] == nil)

        let plan = try JSONValue(parsing: try work.milepost.run("plan", "--to", "2.0", "--format", "json").stdout)
        #expect(plan["steps"]?.array?.map { $0["status"]?.string } == ["completed", "pending", "pending"])
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "c", "undo-c", "undo-b", "b", "c"])
        #expect(try work.milepost.run("revert", "--to", "2.0").stderr.contains("already at 2.0: nothing to revert"))
    }

    @Test func aStepWithoutARevertRefusesTheWholeRevertUpFrontListingIt() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest.replacingOccurrences(
            of: "\n      revert: {command: [sh, -c, 'echo undo-a >> ran.txt']}", with: "")
            + "\n  \"1.5\": [{name: exec, id: final, with: {command: [sh, -c, 'echo final >> ran.txt']}}]\n",
            to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        let journal = try work.read(".milepost/journal.jsonl")
        let state = try work.read(".milepost/state.json")

        let revert = try work.milepost.run("revert", "--to", "0.5")
        #expect(revert.status == 65)
        #expect(revert.stderr.contains(
            "milepost: error: cannot revert: these completed steps have no revert: 1.5/final (no revert), 1.0/a (no revert); nothing was reverted"),
            "\(revert.stderr)")
        #expect(try Self.ran(work) == ["a", "final", "b", "c"])
        #expect(try work.read(".milepost/journal.jsonl") == journal)
        #expect(try work.read(".milepost/state.json") == state)

        let dry = try work.milepost.run("revert", "--to", "0.5", "--dry-run", "--format", "json")
        #expect(dry.status == 65)
        let document = try JSONValue(parsing: dry.stdout)
        #expect(document["irreversible"]?.array?.map { $0["id"]?.string } == ["1.5/final", "1.0/a"])
        #expect(document["irreversible"]?.array?.map { $0["reason"]?.string } == ["no-revert", "no-revert"])
        #expect(try work.milepost.run("revert", "--to", "1.5").status == 0)
        #expect(try Self.ran(work) == ["a", "final", "b", "c", "undo-c", "undo-b"])
    }

    /// A revert to 0.5 killed with SIGKILL inside the revert of `2.0/b`, the second of three.
    static func killedInTheSecondRevert() throws -> (WorkDirectory, ReliabilityKillTests.KilledRunner) {
        let work = try Self.ranToTwo()
        try work.write("", to: "hang")
        let (process, stdout, stderr) = try work.milepost.start(["revert", "--to", "0.5"])
        let killed = ReliabilityKillTests.KilledRunner(work: work, process: process, output: (stdout, stderr))
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        kill(killed.pid, SIGKILL)
        #expect(ReliabilityFixture.eventually { ReliabilityFixture.isDead(killed.pid) })
        try FileManager.default.removeItem(atPath: work.path + "/hang")
        return (work, killed)
    }

    @Test(arguments: ["--retry", "--done"])
    func aRevertKilledInTheMiddleStopsRunAndRevertUntilResolved(resolution: String) throws {
        let (work, killed) = try Self.killedInTheSecondRevert()
        defer { killed.finish() }
        #expect(try Self.ran(work) == ["a", "b", "c", "undo-c"])
        let state = try Self.state(work)
        #expect(state["version"]?.string == "2.0")
        #expect(state["reverting"]?["to"]?.string == "0.5")
        #expect(state["in_progress"]?["id"]?.string == "2.0/b")
        #expect(state["in_progress"]?["direction"]?.string == "revert")
        #expect(state["completed"]?.array?.map { $0["id"]?.string } == ["1.0/a", "2.0/b"])

        // Neither a run (not even the fast path: the stored version is the target) nor a revert goes on.
        for arguments in [["run", "--to", "2.0"], ["revert", "--to", "0.5", "--lock-timeout", "0s"]] {
            let refused = try work.milepost.run(arguments)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("milepost: the revert of step 2.0/b was interrupted (pid \(killed.pid) on "), "\(refused.stderr)")
            #expect(refused.stderr.contains("If its undoing is complete: `milepost resolve 2.0/b --done`; to run its revert again: `milepost resolve 2.0/b --retry`."))
        }
        #expect(try work.read("b-reverting") == "x\n")
        let status = try work.milepost.run("status", "--to", "2.0")
        #expect(status.stdout.contains("the revert of 2.0/b was interrupted: runs and reverts stop at it (exit 2) until it is resolved"), "\(status.stdout)")
        #expect(status.stdout.contains("`milepost resolve 2.0/b --retry`  to run its revert again on the next revert"))
        #expect(try work.milepost.run("status", "--to", "2.0", "--check").status == 4)
        let schema = try JSONSchema()
        let blocked = try work.milepost.run("revert", "--to", "0.5", "--format", "json")
        #expect(schema.problems(ofDocument: blocked.stdout, command: "revert") == [])
        #expect(try JSONValue(parsing: blocked.stdout)["interrupted"]?["direction"]?.string == "revert")

        let resolve = try work.milepost.run("resolve", "2.0/b", resolution)
        #expect(resolve.status == 0)
        #expect(resolve.stdout == (resolution == "--done" ? "2.0/b: recorded as reverted\n" : "2.0/b: its revert runs again on the next revert\n"))
        // The revert is still unfinished: a run still refuses, now naming the revert to finish.
        let run = try work.milepost.run("run", "--to", "2.0")
        #expect(run.status == 2)
        #expect(run.stderr.contains("milepost: refusing to run, nothing ran: a revert to 0.5 is unfinished; finish it first: `milepost revert --to 0.5`"))
        let runJSON = try work.milepost.run("run", "--to", "2.0", "--format", "json")
        #expect(schema.problems(ofDocument: runJSON.stdout, command: "run") == [])
        #expect(try JSONValue(parsing: runJSON.stdout)["outcome"]?.string == "revert-unfinished")
        #expect(try JSONValue(parsing: runJSON.stdout)["reverting"]?["to"]?.string == "0.5")
        let unfinished = try work.milepost.run("status", "--to", "2.0", "--check")
        #expect(unfinished.status == 4)
        #expect(unfinished.stdout.contains("a revert to 0.5 is unfinished: runs refuse (exit 2) until it is finished"), "\(unfinished.stdout)")
        #expect(unfinished.stdout.contains("`milepost revert --to 0.5`"))
        // Nor can a revert to a higher version leave it behind.
        #expect(try work.milepost.run("revert", "--to", "1.5").status == 2)

        let done = try work.milepost.run("revert", "--to", "0.5", "--format", "json")
        #expect(done.status == 0)
        #expect(schema.problems(ofDocument: done.stdout, command: "revert") == [])
        let retried = resolution == "--retry"
        #expect(try Self.ran(work) == (retried ? ["a", "b", "c", "undo-c", "undo-b", "undo-a"] : ["a", "b", "c", "undo-c", "undo-a"]))
        #expect(try work.read("b-reverting") == (retried ? "x\nx\n" : "x\n"))
        let finished = try Self.state(work)
        #expect(finished["version"]?.string == "0.5")
        #expect(finished["completed"]?.array == [])
        #expect(finished["reverting"] == nil && finished["in_progress"] == nil)
        #expect(try Self.reverts(work) == [
            "revert-started 2.0/c", "revert-succeeded 2.0/c", "revert-started 2.0/b",
        ] + (retried ? ["revert-started 2.0/b", "revert-succeeded 2.0/b"] : []) + [
            "revert-started 1.0/a", "revert-succeeded 1.0/a",
        ])
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work).suffix(3) == ["a", "b", "c"])
    }

    @Test func aFailedRevertLeavesTheRevertUnfinishedAndTheNextRevertResumesAtIt() throws {
        let work = try Self.ranToTwo()
        try work.write(Self.manifest.replacingOccurrences(of: "echo undo-c >> ran.txt", with: "[ -e fixed ] && echo undo-c >> ran.txt"),
                       to: "milepost.yaml")
        let failed = try work.milepost.run("revert", "--to", "1.0")
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("milepost: demo the revert of step 2.0/c failed; the stored version stays 2.0 and the revert is unfinished."))
        #expect(try Self.state(work)["failed"]?["direction"]?.string == "revert")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 2)
        try work.write("", to: "fixed")
        #expect(try work.milepost.run("revert", "--to", "1.0").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "c", "undo-c", "undo-b"])
        #expect(try Self.state(work)["failed"] == nil)
    }

    @Test func revertIsCheckedInTheManifestWithSuggestions() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1.0":
                - {name: exec, id: a, with: {command: [true]}, revrt: {command: [true]}}
                - {name: exec, id: b, with: {command: [true]}, revert: {comand: [true]}}
                - {name: exec, id: c, with: {command: [true]}, revert: [true]}
            """, to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 65)
        #expect(validate.stderr.contains("error: unknown key 'revrt' in a step"))
        #expect(validate.stderr.contains("did you mean 'revert'?"))
        #expect(validate.stderr.contains("error: step 'exec' revert: "), "\(validate.stderr)")
        #expect(validate.stderr.contains("error: 'revert' must be a mapping of parameters, like 'with'"))
    }
}
