import Foundation
import Testing

/// Renamed and deleted steps (`replaces:`, orphans) and required stops (`upgrade_from:`, `stops:`),
/// run as the built binary.
@Suite struct UpgradePathTests {
    typealias Steps = [(threshold: String, id: String, extra: String)]

    static func manifest(_ steps: Steps, header: String = "") -> String { LateStepTests.manifest(steps, header: header) }

    // MARK: - Orphans and replaces

    @Test func aRenamedStepWithReplacesDoesNotRunAgain() throws {
        let work = try WorkDirectory()
        let entry = "with: {command: [sh, -c, 'echo renamed >> ran.txt']}"
        try work.write("migrations:\n  2.1: [{name: exec, id: old-name, \(entry)}]\n", to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        // Renamed, under `late: run`: without `replaces:` it would be a late step and run again.
        try work.write(
            "late: run\nmigrations:\n  2.1: [{name: exec, id: new-name, replaces: old-name, \(entry)}]\n"
                + "  2.2: [{name: exec, id: b, with: {command: [sh, -c, 'echo b >> ran.txt']}}]\n", to: "milepost.yaml")
        let plan = try JSONValue(parsing: try work.milepost.run("plan", "--to", "2.2", "--format", "json").stdout)
        #expect(plan["steps"]?.array?.map { $0["status"]?.string } == ["completed", "pending"])
        #expect(try work.milepost.run("run", "--to", "2.2").status == 0)
        #expect(try LateStepTests.ran(work) == ["renamed", "b"])
        let status = try JSONValue(parsing: try work.milepost.run("status", "--to", "2.2", "--format", "json").stdout)
        #expect(status["orphans"] == nil)
        #expect(status["drift"]?.array == [])
        #expect(try work.milepost.run("validate", "--store", ".milepost", "--strict").status == 0)
    }

    @Test func aRenameWithoutReplacesIsAnOrphanAndWouldRunAgain() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest([("2.1", "old-name", "")]), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.1").status == 0)
        try work.write(Self.manifest([("2.1", "new-name", "")], header: "late: run\n"), to: "milepost.yaml")
        let status = try work.milepost.run("status", "--to", "2.1")
        #expect(status.stdout.contains("orphan      2.1/old-name: completed at "))
        #expect(status.stdout.contains("give it `replaces: OLD-ID`"))
        let json = try JSONValue(parsing: try work.milepost.run("status", "--to", "2.1", "--format", "json").stdout)
        #expect(json["orphans"]?.array?.map { $0["id"]?.string } == ["2.1/old-name"])
        #expect(json["pending"]?.array?.map(\.string) == ["2.1/new-name"])
        let validate = try work.milepost.run("validate", "--store", ".milepost", "--format", "json")
        #expect(validate.status == 0)
        let messages = try JSONValue(parsing: validate.stdout)["diagnostics"]?.array?.compactMap { $0["message"]?.string } ?? []
        #expect(messages.contains { $0.hasPrefix("2.1/old-name completed on this store at ") && $0.hasSuffix("but is no longer in the manifest") })
        #expect(try work.milepost.run("validate", "--store", ".milepost", "--strict").status == 65)
    }

    @Test func replacesIsCheckedAgainstTheManifest() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest([("2.1", "a", ""), ("2.2", "b", "replaces: 2.1/a, "), ("2.3", "c", "replaces: 'x/y', ")]), to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 65)
        #expect(validate.stderr.contains("error: 2.2/b replaces 2.1/a, which is still in the manifest; remove one of them"))
        #expect(validate.stderr.contains("error: invalid replaces 'x/y': write the id of the step it renames, ID or THRESHOLD/ID"))
    }

    // MARK: - Required stops

    @Test func aRunFromBelowUpgradeFromIsRefusedBeforeAnyStep() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest([("1.0", "a", "")]), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        try work.write(Self.manifest([("1.0", "a", ""), ("3.0", "c", "")], header: "upgrade_from: \"2.0\"\n"), to: "milepost.yaml")
        let run = try work.milepost.run("run", "--to", "3.0")
        #expect(run.status == 5)
        #expect(run.stderr.contains("milepost: refusing to run, nothing ran: this manifest upgrades stores at 2.0 or later (upgrade_from), and this one is at 1.0: install the release for 2.0 first"))
        #expect(try LateStepTests.ran(work) == ["a"])
        let state = try JSONValue(parsing: try work.milepost.run("status", "--format", "json").stdout)
        #expect(state["version"]?.string == "1.0")
        let json = try JSONValue(parsing: try work.milepost.run("run", "--to", "3.0", "--format", "json").stdout)
        #expect(json["outcome"]?.string == "stop-required")
        #expect(json["required_stop"]?["version"]?.string == "2.0")
        #expect(json["required_stop"]?["kind"]?.string == "upgrade_from")
        #expect(try work.milepost.run("run", "--to", "3.0", "--dry-run").status == 5)
    }

    @Test func stopsMustEachBeReachedInOrder() throws {
        let work = try WorkDirectory()
        let steps: Steps = [("2.0", "a", ""), ("2.5", "b", ""), ("3.0", "c", ""), ("3.1", "d", "")]
        try work.write(Self.manifest(steps, header: "stops: [\"3.0\", \"2.5\"]\n"), to: "milepost.yaml")
        // A fresh store starts from the baseline: stops do not hold a new install.
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        let plan = try work.milepost.run("plan", "--to", "3.1")
        #expect(plan.stdout.contains("refused: a run stops here, before any step (exit 5): 2.5 is a required stop between 2.0 and 3.1"))
        let jumped = try work.milepost.run("run", "--to", "3.1")
        #expect(jumped.status == 5)
        #expect(jumped.stderr.contains("2.5 is a required stop between 2.0 and 3.1: install the release for 2.5 first and run it to 2.5, then run this one to 3.1"))
        #expect(try work.milepost.run("run", "--to", "2.5").status == 0)
        let next = try work.milepost.run("run", "--to", "3.1")
        #expect(next.status == 5)
        #expect(next.stderr.contains("3.0 is a required stop between 2.5 and 3.1"))
        let status = try work.milepost.run("status", "--to", "3.1")
        #expect(status.stdout.contains("stop        3.0 is a required stop between 2.5 and 3.1"))
        #expect(try work.milepost.run("run", "--to", "3.0").status == 0)
        #expect(try work.milepost.run("run", "--to", "3.1").status == 0)
        #expect(try LateStepTests.ran(work) == ["a", "b", "c", "d"])
        #expect(try work.milepost.run("plan", "--from", "2.0", "--to", "3.1").stdout.contains("2.5 is a required stop"))
    }
}
