import Foundation
import Testing

/// The pre-start fast path is exact: a `run` at the stored version answers "up to date" without
/// parsing only when the manifest (its bytes, the env file's, its definition files') has the
/// digest the state was last planned with; any change makes it plan (issue 25, item 1).
@Suite struct ManifestDigestTests {
    /// A store at 2.2 that ran a and b, then the manifest with a hotfix under 2.1.5 (below 2.2).
    static func hotfixedAtTheStoredVersion(header: String) throws -> WorkDirectory {
        let work = try WorkDirectory()
        try work.write(LateStepTests.manifest(LateStepTests.released), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.2").status == 0)
        try work.write(
            LateStepTests.manifest(LateStepTests.released + [("2.1.5", "hotfix", "")], header: header), to: "milepost.yaml")
        return work
    }

    @Test func aLateRunHotfixRunsOnTheNextRunAtTheStoredVersion() throws {
        let work = try Self.hotfixedAtTheStoredVersion(header: "late: run\n")
        let run = try work.milepost.run("run", "--to", "2.2")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try LateStepTests.ran(work) == ["a", "b", "hotfix"])
        let again = try work.milepost.run("run", "--to", "2.2")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "milepost: demo up to date at 2.2\n")
        #expect(try LateStepTests.ran(work) == ["a", "b", "hotfix"])
    }

    @Test func aLateFailHotfixIsRefusedAtTheStoredVersionEveryTime() throws {
        let work = try Self.hotfixedAtTheStoredVersion(header: "late: fail\n")
        for _ in 1...2 {
            let run = try work.milepost.run("run", "--to", "2.2")
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains("2.1.5/hotfix"))
        }
        #expect(try LateStepTests.ran(work) == ["a", "b"])
    }

    @Test func aLabelledStepAnEarlierRunLeftOutRunsWithoutLabels() throws {
        let work = try WorkDirectory()
        try work.write(LateStepTests.manifest([("2.1", "eu", "labels: [eu], "), ("2.1", "us", "labels: [us], ")]), to: "milepost.yaml")
        let scoped = try work.milepost.run("run", "--to", "2.1", "--labels", "eu")
        #expect(scoped.status == 0, "\(scoped.stderr)")
        #expect(try LateStepTests.ran(work) == ["eu"])
        let all = try work.milepost.run("run", "--to", "2.1")
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try LateStepTests.ran(work) == ["eu", "us"])
    }

    @Test func aChangedRepeatableStepRunsAgainAtTheStoredVersion() throws {
        let work = try WorkDirectory()
        let entry = { (word: String) in
            "app: demo\nmigrations:\n  \"1.0\":\n    - {name: exec, id: view, repeat: on-change, with: {command: [sh, -c, 'echo \(word) >> ran.txt']}}\n"
        }
        try work.write(entry("one"), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        try work.write(entry("two"), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        #expect(try LateStepTests.ran(work) == ["one", "two"])
    }

    /// The observable of the fast path: it answers on the main thread alone, so under a limit of one
    /// task (`ReliabilityThreadLimitTests.limited`) an up-to-date run it answers exits 0, where the
    /// full path, whose runtime needs threads, exits 71 before it reads anything.
    static let manifest = "app: demo\nmigrations:\n  \"1.0\":\n    - {name: exec, id: greet, with: {command: [sh, -c, 'echo hi >> ran.txt']}}\n"

    /// `run ARGUMENTS` on one thread, as another uid: 0 when the fast path answers, 71 when the full path would run.
    static func runOnOneThread(_ work: WorkDirectory, _ arguments: String...) throws -> MilepostBinary.Result {
        try ReliabilityThreadLimitTests.shareWithTheOtherUID(work)
        return ReliabilityThreadLimitTests.finish(try ReliabilityThreadLimitTests.limited(work, processes: 1).start(["run"] + arguments))
    }

    @Test func anUnchangedManifestStaysOnTheFastPathAndAnyChangeLeavesIt() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        let journal = try work.read(".milepost/journal.jsonl")

        let fast = try Self.runOnOneThread(work, "--to", "1.0")
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(fast.stderr == "milepost: demo up to date at 1.0\n")
        #expect(try work.read(".milepost/journal.jsonl") == journal)

        // A comment is a change: the run plans, which the full path does.
        try work.write(Self.manifest + "# a comment\n", to: "milepost.yaml")
        #expect(try Self.runOnOneThread(work, "--to", "1.0").status == 71)
        // Planned: nothing to run, and the digest is recorded (no journal record)...
        let nothing = try work.milepost.run("run", "--to", "1.0")
        #expect(nothing.status == 0, "\(nothing.stderr)")
        #expect(try work.read(".milepost/journal.jsonl") == journal)
        // ...so the next start is fast again.
        #expect(try Self.runOnOneThread(work, "--to", "1.0").status == 0)
        #expect(try work.read("ran.txt") == "hi\n")
    }

    @Test func theEnvFileIsPartOfTheDigest() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("GREETING=hi\n", to: "vars.env")
        #expect(try work.milepost.run("run", "--to", "1.0", "--env-file", "vars.env").status == 0)
        #expect(try Self.runOnOneThread(work, "--to", "1.0", "--env-file", "vars.env").status == 0)
        // Without the env file, or with another one, the inputs differ: the run plans.
        #expect(try Self.runOnOneThread(work, "--to", "1.0").status == 71)
        try work.write("GREETING=hello\n", to: "vars.env")
        #expect(try Self.runOnOneThread(work, "--to", "1.0", "--env-file", "vars.env").status == 71)
        #expect(try work.read("ran.txt") == "hi\n")
    }
}
