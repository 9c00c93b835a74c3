import Foundation
import Testing

/// Late (hotfix) steps under each `late:` policy, run as the built binary: 2.2 is deployed, then a
/// 2.1.5 hotfix release adds a step under 2.1.5, and the next release (2.3) is run.
@Suite struct LateStepTests {
    /// `exec` steps that append their id to ran.txt: (threshold, id) and extra keys for the entry;
    /// steps of one threshold are listed under it in the order given.
    static func manifest(_ steps: [(threshold: String, id: String, extra: String)], header: String = "") -> String {
        var thresholds: [String] = []
        for step in steps where !thresholds.contains(step.threshold) { thresholds.append(step.threshold) }
        return "app: demo\n\(header)migrations:\n" + thresholds.map { threshold in
            "  \"\(threshold)\":\n" + steps.filter { $0.threshold == threshold }.map {
                "    - {name: exec, id: \($0.id), \($0.extra)with: {command: [sh, -c, 'echo \($0.id) >> ran.txt']}}\n"
            }.joined()
        }.joined()
    }

    static let released: [(threshold: String, id: String, extra: String)] = [("2.1", "a", ""), ("2.2", "b", "")]

    /// A store at 2.2 that ran a and b, then the manifest with the hotfix and 2.3.
    static func hotfixed(header: String = "", hotfix: String = "") throws -> WorkDirectory {
        let work = try WorkDirectory()
        try work.write(manifest(released), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.2").status == 0)
        try work.write(manifest(released + [("2.1.5", "hotfix", hotfix), ("2.3", "c", "")], header: header), to: "milepost.yaml")
        return work
    }

    static func ran(_ work: WorkDirectory) throws -> [String] {
        try work.read("ran.txt").split(separator: "\n").map(String.init)
    }

    @Test func warnLeavesTheHotfixUnrunAndSaysSoInPlanRunStatusAndValidate() throws {
        let work = try Self.hotfixed()
        let plan = try JSONValue(parsing: try work.milepost.run("plan", "--to", "2.3", "--format", "json").stdout)
        let hotfix = plan["steps"]?.array?.first { $0["id"]?.string == "2.1.5/hotfix" }
        #expect(hotfix?["status"]?.string == "skipped")
        #expect(hotfix?["late"]?.string == "warn")

        let validate = try work.milepost.run("validate", "--store", ".milepost")
        #expect(validate.status == 0)
        #expect(validate.stderr.contains("milepost.yaml:8:14: warning: late step"))
        #expect(validate.stderr.contains("warning: late step 2.1.5/hotfix: added at or below 2.2 after this store reached it"))

        let run = try work.milepost.run("run", "--to", "2.3")
        #expect(run.status == 0)
        #expect(run.stderr.contains("milepost.yaml:8:14: warning: late step 2.1.5/hotfix"))
        #expect(try Self.ran(work) == ["a", "b", "c"])

        let status = try JSONValue(parsing: try work.milepost.run("status", "--to", "2.3", "--format", "json").stdout)
        #expect(status["late"]?.array?.map { $0["policy"]?.string } == ["warn"])
        #expect(status["never_run"]?.array?.map(\.string) == ["2.1.5/hotfix"])
    }

    @Test func runRunsTheHotfixFirstThenTheNewerSteps() throws {
        let work = try Self.hotfixed(header: "late: run\n")
        let plan = try work.milepost.run("plan", "--to", "2.3")
        #expect(plan.stdout.contains("pending      2.1.5/hotfix  added at or below 2.2 after this store reached it: runs before the newer steps (late: run)"))
        let run = try work.milepost.run("run", "--to", "2.3", "--format", "json")
        #expect(run.status == 0)
        let document = try JSONValue(parsing: run.stdout)
        #expect(document["steps"]?.array?.map { $0["id"]?.string } == ["2.1.5/hotfix", "2.3/c"])
        #expect(document["late"]?.array?.map { $0["id"]?.string } == ["2.1.5/hotfix"])
        #expect(try Self.ran(work) == ["a", "b", "hotfix", "c"])
        // Once run, it is completed like any other step.
        #expect(try work.milepost.run("run", "--to", "2.3").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "hotfix", "c"])
    }

    @Test func failRefusesEveryRunBeforeAnyStepWithALocatedError() throws {
        let work = try Self.hotfixed(header: "late: fail\n")
        let run = try work.milepost.run("run", "--to", "2.3")
        #expect(run.status == 65)
        #expect(run.stderr.contains("milepost.yaml:9:14: error: late step 2.1.5/hotfix: added at or below 2.2 after this store reached it: a run refuses to start (late: fail)"))
        #expect(run.stderr.contains("refusing to run, nothing ran"))
        #expect(try Self.ran(work) == ["a", "b"])
        let json = try JSONValue(parsing: try work.milepost.run("run", "--to", "2.3", "--format", "json").stdout)
        #expect(json["outcome"]?.string == "late-refused")
        #expect(json["exit_code"] == .integer(65))
        #expect(try work.milepost.run("run", "--to", "2.3", "--dry-run").status == 65)
        #expect(try work.milepost.run("validate", "--store", ".milepost").status == 65)
        #expect(try work.milepost.run("validate").status == 0)  // without the store, nothing is late
        let history = try work.milepost.run("history")
        #expect(history.stdout.contains("late-refused"))
        // A readiness gate does not call ready a store whose next run refuses, even at its version.
        #expect(try work.milepost.run("status", "--to", "2.2", "--check").status == 4)
    }

    @Test func aStepsOwnLatePolicyWinsOverTheManifests() throws {
        let work = try Self.hotfixed(header: "late: fail\n", hotfix: "late: run, ")
        #expect(try work.milepost.run("run", "--to", "2.3").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "hotfix", "c"])
    }

    /// A store given a version by `milepost baseline` has the effects of the steps below it: they are not late.
    @Test func stepsAtOrBelowAStoresBaselineAreNotLate() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest(Self.released + [("2.3", "c", "")], header: "late: run\n"), to: "milepost.yaml")
        #expect(try work.milepost.run("baseline", "2.2").status == 0)
        let run = try work.milepost.run("run", "--to", "2.3", "--format", "json")
        #expect(run.status == 0)
        #expect(try JSONValue(parsing: run.stdout)["late"] == nil)
        #expect(try Self.ran(work) == ["c"])
    }
}
