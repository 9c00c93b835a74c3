import Foundation
import Testing

/// `labels:` with `--labels EXPR` and `when: fresh-install | upgrade`, run as the built binary:
/// `exec` steps append their id to ran.txt.
@Suite struct LabelScopeTests {
    /// 2.1/base (unlabelled), 2.5/eu-data [eu], 2.5/us-data [us], 3.0/reindex [eu, heavy], 3.0/notify.
    static let labelled = """
        app: demo
        migrations:
          "2.1":
            - {name: exec, id: base, with: {command: [sh, -c, 'echo base >> ran.txt']}}
          "2.5":
            - {name: exec, id: eu-data, labels: [eu], with: {command: [sh, -c, 'echo eu-data >> ran.txt']}}
            - {name: exec, id: us-data, labels: us, with: {command: [sh, -c, 'echo us-data >> ran.txt']}}
          "3.0":
            - {name: exec, id: reindex, labels: [eu, heavy], with: {command: [sh, -c, 'echo reindex >> ran.txt']}}
            - {name: exec, id: notify, with: {command: [sh, -c, 'echo notify >> ran.txt']}}

        """

    static func ran(_ work: WorkDirectory) throws -> [String] {
        guard work.exists("ran.txt") else { return [] }
        return try work.read("ran.txt").split(separator: "\n").map(String.init)
    }

    static func steps(_ json: String) throws -> [String: JSONValue] {
        let plan = try JSONValue(parsing: json)
        return Dictionary(uniqueKeysWithValues: (plan["steps"]?.array ?? []).map { ($0["id"]?.string ?? "", $0) })
    }

    @Test func anExpressionChoosesStepsAndAWiderRunPicksUpTheRest() throws {
        let work = try WorkDirectory()
        try work.write(Self.labelled, to: "milepost.yaml")

        let narrow = try work.milepost.run("run", "--to", "3.0", "--labels", "us")
        #expect(narrow.status == 0, "\(narrow.stderr)")
        #expect(try Self.ran(work) == ["base", "us-data", "notify"])
        let state = try JSONValue(parsing: try work.read(".milepost/state.json"))
        #expect(state["version"]?.string == "3.0")
        #expect(state["completed"]?.array?.map { $0["id"]?.string } == ["2.1/base", "2.5/us-data", "3.0/notify"])

        // Without --labels every step is in scope: the steps left out below 3.0 are pending.
        let plan = try Self.steps(try work.milepost.run("plan", "--to", "3.0", "--format", "json").stdout)
        #expect(plan["2.5/eu-data"]?["status"]?.string == "pending")
        #expect(plan["2.5/eu-data"]?["scope"]?.string == "in")
        #expect(plan["3.0/reindex"]?["status"]?.string == "pending")
        #expect(plan["2.1/base"]?["scope"] == nil)
        #expect(try work.milepost.run("status", "--check", "--to", "3.0").status == 4)

        // A wider expression at the same version reads the manifest and runs what it now includes.
        let wider = try work.milepost.run("run", "--to", "3.0", "--labels", "eu and not heavy")
        #expect(wider.status == 0, "\(wider.stderr)")
        #expect(try Self.ran(work) == ["base", "us-data", "notify", "eu-data"])

        var fromEnvironment = work.milepost
        fromEnvironment.environment = ["MILEPOST_LABELS": "heavy"]
        let last = try fromEnvironment.run("run", "--to", "3.0")
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try Self.ran(work) == ["base", "us-data", "notify", "eu-data", "reindex"])
        #expect(try work.milepost.run("status", "--check", "--to", "3.0").status == 0)

        // A plain run at the stored version plans (no --labels run records a digest), finds nothing
        // left out, and is up to date. (`ManifestDigestTests`: it runs what was left out.)
        let plain = try work.milepost.run("run", "--to", "3.0")
        #expect(plain.stderr == "milepost: demo up to date at 3.0\n")
        #expect(try Self.ran(work).count == 5)
    }

    @Test func aLaterUpgradeWithoutLabelsRunsTheStepsLeftOutFirst() throws {
        let work = try WorkDirectory()
        try work.write(Self.labelled, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "2.5", "--labels", "not eu").status == 0)
        #expect(try Self.ran(work) == ["base", "us-data"])
        let run = try work.milepost.run("run", "--to", "3.0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.ran(work) == ["base", "us-data", "eu-data", "reindex", "notify"])
    }

    @Test func planSaysWhyEachStepIsInOrOut() throws {
        let work = try WorkDirectory()
        try work.write(Self.labelled, to: "milepost.yaml")
        let text = try work.milepost.run("plan", "--to", "3.0", "--labels", "eu and not heavy")
        #expect(text.status == 0)
        #expect(text.stdout.contains("pending      2.5/eu-data  0 < 2.5 <= 3.0 (labels eu match --labels 'eu and not heavy')"), "\(text.stdout)")
        #expect(text.stdout.contains("out-of-scope 2.5/us-data  labels us do not match --labels 'eu and not heavy'"))
        #expect(text.stdout.contains("out-of-scope 3.0/reindex  labels eu, heavy do not match --labels 'eu and not heavy'"))
        let json = try work.milepost.run("plan", "--from", "2.1", "--to", "3.0", "--labels", "eu and not heavy", "--format", "json")
        let root = try JSONValue(parsing: json.stdout)
        #expect(root["labels"]?.string == "eu and not heavy")
        #expect(root["pending"]?.array?.map(\.string) == ["2.5/eu-data", "3.0/notify"])
        let steps = try Self.steps(json.stdout)
        #expect(steps["3.0/reindex"]?["status"]?.string == "out-of-scope")
        #expect(steps["3.0/reindex"]?["scope"]?.string == "out")
        #expect(steps["3.0/reindex"]?["labels"]?.array?.map(\.string) == ["eu", "heavy"])
    }

    @Test(arguments: [
        ("eu and (heavy", "column 14: expected ')' to close the '(' at column 8, found the end of the expression\n  eu and (heavy\n               ^"),
        ("eu heavy", "column 4: expected 'and', 'or' or the end of the expression, found 'heavy'\n  eu heavy\n     ^"),
        ("", "--labels must not be empty"),
    ] as [(String, String)])
    func anExpressionThatDoesNotParseIsAUsageErrorAtItsColumn(expression: String, message: String) throws {
        let work = try WorkDirectory()
        try work.write(Self.labelled, to: "milepost.yaml")
        for command in ["run", "plan", "status"] {
            let result = try work.milepost.run(command, "--to", "3.0", "--labels", expression)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(command): \(result.stderr)")
        }
        #expect(!work.exists(".milepost"))
        var fromEnvironment = work.milepost
        fromEnvironment.environment = ["MILEPOST_LABELS": "eu or"]
        let result = try fromEnvironment.run("run", "--to", "3.0")
        #expect(result.status == 64)
        #expect(result.stderr.contains("column 6: expected a label, 'not' or '(', found the end of the expression"), "\(result.stderr)")
        #expect(!work.exists(".milepost"))
    }

    @Test func badLabelsAndConditionsAreLocatedManifestErrors() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1":
                - {name: exec, labels: [eu, and, 2x, eu], with: {command: ["true"]}}
                - {name: exec, id: b, lables: [eu], when: fresh, with: {command: ["true"]}}

            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 65)
        #expect(result.stderr.contains("milepost.yaml:3:33: error: invalid label 'and': use letters, digits, '_', '.' and '-', starting with a letter or '_' (and, or and not are operators)"), "\(result.stderr)")
        #expect(result.stderr.contains("milepost.yaml:3:38: error: invalid label '2x'"))
        #expect(result.stderr.contains("milepost.yaml:3:42: error: the label 'eu' is listed twice"))
        #expect(result.stderr.contains("milepost.yaml:4:27: error: unknown key 'lables' in a step"))
        #expect(result.stderr.contains("note: did you mean 'labels'?"))
        #expect(result.stderr.contains("milepost.yaml:4:47: error: invalid when 'fresh': expected fresh-install or upgrade"))
        #expect(result.stderr.contains("note: did you mean 'fresh-install'?"))
    }

    // MARK: - when: fresh-install | upgrade

    /// 1.0/seed (fresh installs), 1.0/convert (upgrades), 1.0/always; 2.0/seed2, 2.0/convert2;
    /// 1.0/flaky fails while fail.flag exists.
    static let conditioned = """
        app: demo
        migrations:
          "1.0":
            - {name: exec, id: seed, when: fresh-install, with: {command: [sh, -c, 'echo seed >> ran.txt']}}
            - {name: exec, id: convert, when: upgrade, with: {command: [sh, -c, 'echo convert >> ran.txt']}}
            - {name: exec, id: always, with: {command: [sh, -c, 'echo always >> ran.txt']}}
            - {name: exec, id: flaky, with: {command: [sh, -c, 'test ! -e fail.flag']}}
          "2.0":
            - {name: exec, id: seed2, when: fresh-install, with: {command: [sh, -c, 'echo seed2 >> ran.txt']}}
            - {name: exec, id: convert2, when: upgrade, with: {command: [sh, -c, 'echo convert2 >> ran.txt']}}

        """

    /// `plan --from V` plans an upgrade and says that a host with no store would be a fresh install
    /// from the manifest's `baseline:` (the key), unless `milepost baseline V` (the command) is run.
    @Test func planFromSaysAHostWithNoStoreWouldBeAFreshInstall() throws {
        let work = try WorkDirectory()
        try work.write("baseline: \"0.5\"\n" + Self.conditioned, to: "milepost.yaml")
        let text = try work.milepost.run("plan", "--from", "0.9", "--to", "2.0")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("convert2"))
        let note = text.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(note == "note: a store at 0.9 makes this an upgrade (when: upgrade steps run, when: fresh-install steps do not); "
            + "a host with no store would be a fresh install from the baseline 0.5 (when: fresh-install steps run, "
            + "when: upgrade steps do not), unless `milepost baseline 0.9` records 0.9 on its store first", "\(text.stdout)")

        let json = try work.milepost.run("plan", "--from", "0.9", "--to", "2.0", "--format", "json")
        let plan = try JSONValue(parsing: json.stdout)
        #expect(plan["without_store"]?["run"]?.string == "fresh-install")
        #expect(plan["without_store"]?["from"]?.string == "0.5")
        #expect(try Self.steps(json.stdout)["2.0/convert2"]?["status"]?.string == "pending")
        #expect(try JSONSchema().problems(ofDocument: json.stdout, command: "plan") == [])

        // What the note says: a host with no store runs the fresh-install steps and skips the upgrade ones…
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["seed", "always", "seed2"])
        // …and a store given `milepost baseline 0.9` first is the upgrade the plan showed.
        let other = try WorkDirectory()
        try other.write("baseline: \"0.5\"\n" + Self.conditioned, to: "milepost.yaml")
        #expect(try other.milepost.run("baseline", "0.9").status == 0)
        #expect(try other.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(other) == ["convert", "always", "convert2"])

        // A plan from a store says nothing of the kind.
        let stored = try work.milepost.run("plan", "--to", "2.0", "--format", "json")
        #expect(try JSONValue(parsing: stored.stdout)["without_store"] == nil)
        #expect(!(try work.milepost.run("plan", "--to", "2.0").stdout.contains("a host with no store")))
    }

    @Test func aFreshInstallRunsItsStepsAndAnUpgradeItsOwn() throws {
        let work = try WorkDirectory()
        try work.write(Self.conditioned, to: "milepost.yaml")
        let plan = try Self.steps(try work.milepost.run("plan", "--to", "1.0", "--format", "json").stdout)
        #expect(plan["1.0/seed"]?["status"]?.string == "pending")
        #expect(plan["1.0/convert"]?["status"]?.string == "out-of-scope")
        #expect(plan["1.0/convert"]?["reason"]?.string == "when: upgrade, and this run is a fresh install")
        #expect(plan["1.0/convert"]?["when"]?.string == "upgrade")

        #expect(try work.milepost.run("run", "--to", "1.0").status == 0)
        #expect(try Self.ran(work) == ["seed", "always"])
        // Never pending afterwards: the condition was decided by the run that passed 1.0.
        let status = try JSONValue(parsing: try work.milepost.run("status", "--to", "1.0", "--format", "json").stdout)
        #expect(status["pending"]?.array?.isEmpty != false)
        #expect(status["never_run"]?.array?.isEmpty != false)
        #expect(try work.milepost.run("status", "--check", "--to", "1.0").status == 0)

        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["seed", "always", "convert2"])
        let after = try Self.steps(try work.milepost.run("plan", "--to", "2.0", "--format", "json").stdout)
        #expect(after["1.0/convert"]?["status"]?.string == "out-of-scope")
        #expect(after["2.0/seed2"]?["status"]?.string == "out-of-scope")
        #expect(try work.milepost.run("status", "--check", "--to", "2.0").status == 0)
    }

    @Test func aBaselinedStoreIsUpgraded() throws {
        let work = try WorkDirectory()
        try work.write(Self.conditioned, to: "milepost.yaml")
        #expect(try work.milepost.run("baseline", "0.5").status == 0)
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["convert", "always", "convert2"])
    }

    @Test func anInstallThatFailedIsStillAFreshInstallUntilItSucceeds() throws {
        let work = try WorkDirectory()
        try work.write(Self.conditioned, to: "milepost.yaml")
        try work.write("", to: "fail.flag")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 1)
        #expect(try Self.ran(work) == ["seed", "always"])
        try FileManager.default.removeItem(atPath: work.path + "/fail.flag")
        let plan = try Self.steps(try work.milepost.run("plan", "--to", "2.0", "--format", "json").stdout)
        #expect(plan["2.0/seed2"]?["status"]?.string == "pending")
        #expect(plan["2.0/convert2"]?["status"]?.string == "out-of-scope")
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try Self.ran(work) == ["seed", "always", "seed2"])
    }
}
