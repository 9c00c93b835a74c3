import Foundation
import Testing

/// Repeatable steps (`repeat: on-change`), run as the built binary: `exec` steps that append a word
/// to ran.txt, one of them repeatable.
@Suite struct RepeatableStepTests {
    /// A manifest with one-time steps `a` (1.0) and `b` (2.0) and the repeatable `view` under
    /// `viewThreshold`, each appending its word (`view` appends `viewWord`).
    static func manifest(viewWord: String = "view1", viewThreshold: String = "1.0", bWord: String = "b") -> String {
        var thresholds: [String: [String]] = [
            "1.0": ["{name: exec, id: a, with: {command: [sh, -c, 'echo a >> ran.txt']}}"],
            "2.0": ["{name: exec, id: b, with: {command: [sh, -c, 'echo \(bWord) >> ran.txt']}}"],
        ]
        thresholds[viewThreshold, default: []].append(
            "{name: exec, id: view, repeat: on-change, with: {command: [sh, -c, 'echo \(viewWord) >> ran.txt']}}")
        return "app: demo\nmigrations:\n" + thresholds.keys.sorted().map { threshold in
            "  \"\(threshold)\":\n" + thresholds[threshold]!.map { "    - \($0)\n" }.joined()
        }.joined()
    }

    static func ran(_ work: WorkDirectory) throws -> [String] {
        try work.read("ran.txt").split(separator: "\n").map(String.init)
    }

    @Test func runsAfterTheOneTimeStepsThenAgainExactlyWhenItsEntryChanges() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest(), to: "milepost.yaml")
        // First run: listed under 1.0, it runs after every one-time step of the run.
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "view1"])

        // Unchanged: a run to a new version does not run it again.
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "view1"])

        // Another step's entry changed: that is drift of that step, and the repeatable step stays put.
        try work.write(Self.manifest(bWord: "b2"), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.2").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "view1"])
        let drifted = try JSONValue(parsing: try work.milepost.run("status", "--format", "json").stdout)
        #expect(drifted["drift"]?.array?.map { $0["id"]?.string } == ["2.0/b"])
        #expect(drifted["changed"] == nil)

        // Its own entry changed: plan and status say so (and it is not drift), the next run runs it once.
        try work.write(Self.manifest(viewWord: "view2"), to: "milepost.yaml")
        let plan = try work.milepost.run("plan", "--to", "2.3")
        #expect(plan.stdout.contains("2.2 (stored) → 2.3: 1 step to run"))
        #expect(plan.stdout.contains(
            "pending      1.0/view  entry changed since it last ran: runs again after the one-time steps (repeat: on-change)"))
        let planJSON = try JSONValue(parsing: try work.milepost.run("plan", "--to", "2.3", "--format", "json").stdout)
        let view = planJSON["steps"]?.array?.last
        #expect(view?["id"]?.string == "1.0/view")
        #expect(view?["repeat"]?.string == "on-change")
        #expect(view?["status"]?.string == "pending")
        let status = try work.milepost.run("status", "--to", "2.3")
        #expect(status.stdout.contains("changed     1.0/view: entry changed since it last ran; the next run runs it again (repeat: on-change)"))
        let statusJSON = try JSONValue(parsing: try work.milepost.run("status", "--to", "2.3", "--format", "json").stdout)
        #expect(statusJSON["changed"]?.array?.map(\.string) == ["1.0/view"])
        #expect(statusJSON["drift"]?.array?.map { $0["id"]?.string } == [])
        let validate = try work.milepost.run("validate", "--store", ".milepost")
        #expect(validate.status == 0)
        #expect(!validate.stderr.contains("1.0/view changed"))

        let run = try JSONValue(parsing: try work.milepost.run("run", "--to", "2.3", "--format", "json").stdout)
        #expect(run["steps"]?.array?.map { $0["id"]?.string } == ["1.0/view"])
        #expect(try Self.ran(work) == ["a", "b", "view1", "view2"])
        #expect(try work.milepost.run("run", "--to", "2.4").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "view1", "view2"])

        // One record per repeatable step in the state: its last run's.
        let state = try JSONValue(parsing: try work.read(".milepost/state.json"))
        #expect(state["completed"]?.array?.compactMap { $0["id"]?.string } == ["1.0/a", "2.0/b", "1.0/view"])
        // The journal has both runs of it.
        let journal = try work.read(".milepost/journal.jsonl").split(separator: "\n")
        #expect(journal.filter { $0.contains(#""event":"step-succeeded""#) && $0.contains(#""step":"1.0/view""#) }.count == 2)
    }

    @Test func aRunAtTheStoredVersionRunsAChangedRepeatableStepAndIsOtherwiseUpToDate() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest(), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        let again = try work.milepost.run("run", "--to", "2.0")
        #expect(again.status == 0)
        #expect(again.stderr.contains("milepost: demo up to date at 2.0"))

        // The same --to after the entry changed: the run reads the manifest and runs it.
        try work.write(Self.manifest(viewWord: "view2"), to: "milepost.yaml")
        let changed = try work.milepost.run("run", "--to", "2.0")
        #expect(changed.status == 0)
        #expect(changed.stderr.contains("milepost: demo 2.0 → 2.0: 1 step ran"))
        #expect(try Self.ran(work) == ["a", "b", "view1", "view2"])
        #expect(try work.milepost.run("run", "--to", "2.0").stderr.contains("up to date at 2.0"))

        // A one-time step's change is drift: still up to date, nothing runs.
        try work.write(Self.manifest(viewWord: "view2", bWord: "b2"), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").stderr.contains("up to date at 2.0"))
        #expect(try Self.ran(work) == ["a", "b", "view1", "view2"])
    }

    @Test func itsThresholdGatesItsFirstRun() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest(viewThreshold: "3.0"), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["a", "b"])
        let plan = try work.milepost.run("plan", "--to", "2.0")
        #expect(plan.stdout.contains("above-target 3.0/view  above the target 2.0"))
        #expect(try work.milepost.run("run", "--to", "3.0").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "view1"])
    }

    @Test func addedAtOrBelowTheStoredVersionItRunsWithTheNextRunInsteadOfBeingLate() throws {
        let work = try WorkDirectory()
        try work.write(LateStepTests.manifest([("1.0", "a", ""), ("2.0", "b", "")]), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        try work.write(Self.manifest(), to: "milepost.yaml")
        let plan = try work.milepost.run("plan", "--to", "2.1")
        #expect(plan.stdout.contains("pending      1.0/view  repeatable, never ran here: runs after the one-time steps (repeat: on-change)"))
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        #expect(try Self.ran(work) == ["a", "b", "view1"])
    }

    @Test func anInvalidRepeatIsALocatedErrorWithTheValuesItTakes() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1.0:\n    - {name: exec, repeat: always, with: {command: ['true']}}\n", to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 65)
        #expect(validate.stderr.contains("milepost.yaml:3:28: error: invalid repeat 'always': expected on-change"))
        try work.write("migrations:\n  1.0:\n    - {name: exec, repeats: on-change, with: {command: ['true']}}\n", to: "milepost.yaml")
        let typo = try work.milepost.run("validate")
        #expect(typo.stderr.contains("unknown key 'repeats' in a step"))
        #expect(typo.stderr.contains("did you mean 'repeat'?"))
    }
}
