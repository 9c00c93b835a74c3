import Foundation
import Testing

/// One rule for "ready" (`Readiness`), shared by `wait` and `status --check`, and what an unfinished
/// revert does to it, run as the built binary.
@Suite struct ReadinessTests {
    /// `1.0/a`, `2.0/b`, `3.0/c`, each with a revert; `b`'s revert fails while the file `fail`
    /// exists, and `b` itself while `fail-b` exists.
    static let manifest = """
        app: demo
        migrations:
          "1.0":
            - {name: exec, id: a, with: {command: ['true']}, revert: {command: ['true']}}
          "2.0":
            - {name: exec, id: b, with: {command: [sh, -c, '! test -e fail-b']}, revert: {command: [sh, -c, '! test -e fail']}}
          "3.0":
            - {name: exec, id: c, with: {command: ['true']}, revert: {command: ['true']}}

        """

    /// A revert from 3.0 to 1.0 stopped mid-way (the revert of 2.0/b failed after 3.0/c was undone)
    /// and resolved as advised: the state says 3.0, reverting to 1.0, with 2.0 and 3.0 undone. No
    /// version is ready, `status` heads its report with the unfinished revert and lists the undone
    /// steps as reverted (not as never running, nor late), and `baseline 3.0 --force` clears the mark.
    @Test func anUnfinishedRevertIsReadyForNoVersionAndItsStepsAreReverted() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "3.0").status == 0)
        try work.write("", to: "fail")
        #expect(try work.milepost.run("revert", "--to", "1.0").status == 1)
        let resolve = try work.milepost.run("resolve", "2.0/b", "--done")
        #expect(resolve.status == 0, "\(resolve.stderr)")

        for target in ["3.0", "1.0"] {
            let wait = try work.milepost.run("wait", "--to", target, "--timeout", "60s")
            #expect(wait.status == 2, "wait --to \(target): \(wait.stderr)")
            #expect(wait.stderr.contains("a revert to 1.0 is unfinished and no revert holds the lock"), "\(wait.stderr)")
            #expect(try work.milepost.run("status", "--to", target, "--check").status == 4)
        }
        let status = try work.milepost.run("status", "--to", "3.0")
        #expect(status.stdout.hasPrefix("demo: REVERT-UNFINISHED a revert to 1.0 is unfinished"), "\(status.stdout)")
        #expect(!status.stdout.contains("never runs"), "\(status.stdout)")
        #expect(status.stdout.contains("reverted    2.0/b: undone by the unfinished revert to 1.0"), "\(status.stdout)")
        let document = try JSONValue(parsing: try work.milepost.run("status", "--to", "3.0", "--format", "json").stdout)
        #expect(document["verdict"]?.string == "revert-unfinished")
        #expect(document["reverted"]?.array?.compactMap(\.string) == ["2.0/b", "3.0/c"])
        #expect(document["never_run"]?.array?.isEmpty == true)
        #expect(document["late"]?.array?.isEmpty != false)
        let plan = try JSONValue(parsing: try work.milepost.run("plan", "--to", "3.0", "--format", "json").stdout)
        #expect(plan["steps"]?.array?.map { $0["status"]?.string } == ["completed", "reverted", "reverted"], "\(plan)")

        let run = try work.milepost.run("run", "--to", "3.0")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(!run.stderr.contains("late"), "\(run.stderr)")

        // A baseline says what the store has: the revert's target no longer applies.
        #expect(try work.milepost.run("baseline", "3.0", "--force").status == 0)
        #expect(try JSONValue(parsing: try work.read(".milepost/state.json"))["reverting"] == nil)
        #expect(try work.milepost.run("wait", "--to", "3.0", "--timeout", "60s").status == 0)
        #expect(try work.milepost.run("status", "--to", "3.0", "--check").status == 0)
    }

    /// A step above the target that failed does not make the store unready for the target; one at
    /// or below it does. `wait` and `status --check` answer alike.
    @Test func waitAndStatusCheckAgreeAboutAFailedStepAboveTheTarget() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        try work.write("", to: "fail-b")
        #expect(try work.milepost.run("run", "--to", "3.0").status == 1)
        let ready = try work.milepost.run("wait", "--to", "1.0", "--timeout", "60s")
        #expect(ready.status == 0, "\(ready.stderr)")
        #expect(try work.milepost.run("status", "--to", "1.0", "--check").status == 0)
        let failed = try work.milepost.run("wait", "--to", "2.0", "--timeout", "60s")
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(try work.milepost.run("status", "--to", "2.0", "--check").status == 4)
    }
}
