import Foundation
import Testing

/// `${NAME}`, `${NAME:-default}`, `${NAME:?message}` of declared variables in `with:` strings, from
/// the environment and `--env-file`, through the built binary.
@Suite struct ManifestVariableTests {
    static let manifest = """
        variables: [DB_URL, MODE]
        migrations:
          1.0:
            - name: exec
              id: connect
              with:
                command: [sh, -c, 'echo "$0 $1 $$" > out.txt', '${DB_URL:?set DB_URL to the database}', '${MODE:-safe}']
        """

    @Test func valuesComeFromTheEnvironmentAndTheEnvFileTheEnvironmentWinning() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("# deploy settings\nexport DB_URL='postgres://db/app'\nMODE=fast\n", to: "deploy.env")
        let run = try MilepostBinary(directory: work.path, environment: ["MODE": "slow"])
            .run("run", "--to", "1.0", "--env-file", "deploy.env")
        #expect(run.status == 0, "\(run.stderr)")
        let out = try String(contentsOfFile: work.path + "/out.txt", encoding: .utf8)
        #expect(out.hasPrefix("postgres://db/app slow "), "\(out)")  // `$$` stays the shell's pid
        #expect(Int(out.split(separator: " ")[2].dropLast()) != nil, "\(out)")
    }

    /// An env file saved with CRLF line ends (an editor on Windows) sets each variable: read by
    /// `Character`, the first one took the rest of the file as its value (issue 47).
    @Test func anEnvFileWithCRLFLineEndsSetsEachVariable() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("DB_URL=postgres://db/app\r\nMODE=fast\r\n", to: "deploy.env")
        let run = try work.milepost.run("run", "--to", "1.0", "--env-file", "deploy.env")
        #expect(run.status == 0, "\(run.stderr)")
        let out = try String(contentsOfFile: work.path + "/out.txt", encoding: .utf8)
        #expect(out.hasPrefix("postgres://db/app fast "), "\(out)")
    }

    @Test func defaultsApplyWhenUnset() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let run = try MilepostBinary(directory: work.path, environment: ["DB_URL": "db"]).run("run", "--to", "1.0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: work.path + "/out.txt", encoding: .utf8).hasPrefix("db safe "))
    }

    /// An unset required variable is a located error (65) and no step runs, nothing is stored.
    @Test func anUnsetRequiredVariableStopsTheRunBeforeAnyStep() throws {
        let work = try WorkDirectory()
        try work.write("""
            variables: [DB_URL]
            migrations:
              1.0:
                - name: exec
                  id: first
                  with: {command: [touch, first-ran]}
                - name: exec
                  id: connect
                  with: {command: [sh, -c, 'echo "$0"', '${DB_URL:?set DB_URL to the database}']}
            """, to: "milepost.yaml")
        let run = try work.milepost.run("run", "--to", "1.0")
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("""
            milepost.yaml:9:45: error: step 'exec': variable 'DB_URL' is not set: set DB_URL to the database
            """), "\(run.stderr)")
        #expect(!work.exists("first-ran"))
        #expect(!work.exists(".milepost/state.json"))
        #expect(!work.exists(".milepost/journal.jsonl"))
    }

    /// `validate` checks only the syntax, unless asked to check an environment with `--env-file`.
    @Test func validateChecksSyntaxAndWithAnEnvFileTheValues() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let syntax = try work.milepost.run("validate")
        #expect(syntax.status == 0, "\(syntax.stderr)")
        try work.write("MODE=fast\n", to: "prod.env")
        let checked = try work.milepost.run("validate", "--env-file", "prod.env", "--format", "json")
        #expect(checked.status == 65, "\(checked.stderr)")
        let document = try ReliabilityFixture.object(checked.stdout)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["line"] as? Int == 7)
        #expect(diagnostics.first?["column"] as? Int == 56)
        #expect((diagnostics.first?["message"] as? String)?.contains("variable 'DB_URL' is not set") == true)
        try work.write("DB_URL=x\n", to: "prod.env")
        #expect(try work.milepost.run("validate", "--env-file", "prod.env").status == 0)
    }

    @Test func malformedReferencesAndEnvFilesAreLocatedErrors() throws {
        let work = try WorkDirectory()
        try work.write("variables: [DB_URL]\nmigrations:\n  1.0: [{name: exec, with: {command: [echo, '${DB_URL']}}]\n", to: "milepost.yaml")
        let syntax = try work.milepost.run("validate")
        #expect(syntax.status == 65)
        #expect(syntax.stderr.contains("milepost.yaml:3:45: error: step 'exec': 'command[1]': '${' without a closing '}'"), "\(syntax.stderr)")

        try work.write("migrations:\n  1.0: [{name: exec, with: {command: [echo]}}]\n", to: "milepost.yaml")
        try work.write("OK=1\nnot an entry\n", to: "bad.env")
        let badFile = try work.milepost.run("run", "--to", "1.0", "--env-file", "bad.env")
        #expect(badFile.status == 65, "\(badFile.stderr)")
        #expect(badFile.stderr.contains("bad.env:2:1: error: expected NAME=value"), "\(badFile.stderr)")
        let missing = try work.milepost.run("run", "--to", "1.0", "--env-file", "nope.env")
        #expect(missing.status == 66, "\(missing.stderr)")
    }

    /// Shell text in a step passes through unchanged: `${x:-none}` is the shell's, because `x` is no
    /// declared variable; a declared one beside it is substituted, and `validate` says which is which
    /// (issue 25, item 9).
    @Test func shellTextIsKeptAndValidateSaysWhatIsSubstituted() throws {
        let work = try WorkDirectory()
        try work.write("""
            variables: [GREETING]
            migrations:
              1.0:
                - {name: exec, id: shell, with: {command: [sh, -c, 'x=1; echo "${x:-none} $0" > out.txt', '${GREETING}']}}
            """, to: "milepost.yaml")
        let run = try MilepostBinary(directory: work.path, environment: ["GREETING": "hello", "x": "env"]).run("run", "--to", "1.0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try work.read("out.txt") == "1 hello\n")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.contains("milepost.yaml: substitutes ${GREETING}; keeps ${x:-none} as written for the step's shell"), "\(validate.stdout)")
        let json = try ReliabilityFixture.object(try work.milepost.run("validate", "--format", "json").stdout)
        #expect(json["substituted_variables"] as? [String] == ["GREETING"])
        #expect(json["kept_for_shell"] as? [String] == ["${x:-none}"])
    }

    /// A manifest written before the rule changed (no `variables:`) gets a warning from `validate`
    /// at each `${NAME}` it now keeps for the shell; `variables: []` says it means none.
    @Test func anUndeclaredVariableIsAWarningInAManifestWithoutVariables() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1.0: [{name: exec, with: {command: [echo, '${DB_URL}']}}]\n", to: "milepost.yaml")
        let validate = try work.milepost.run("validate", "--strict")
        #expect(validate.status == 65, "\(validate.stderr)")
        #expect(validate.stderr.contains("milepost.yaml:2:45: warning: '${DB_URL}' is kept as written for the step's shell"), "\(validate.stderr)")
        try work.write("variables: []\nmigrations:\n  1.0: [{name: exec, with: {command: [echo, '${DB_URL}']}}]\n", to: "milepost.yaml")
        #expect(try work.milepost.run("validate", "--strict").status == 0)
    }

    /// A variable only a completed step uses is not needed by a later run or a revert: only the
    /// steps a command runs (or reverts) need their variables; `validate` still checks every step
    /// (issue 25, item 10).
    @Test func aVariableOfACompletedStepIsNotRequiredLater() throws {
        let work = try WorkDirectory()
        let first = """
            variables: [DB_PASSWORD]
            migrations:
              1.5:
                - name: exec
                  id: seed
                  with: {command: [sh, -c, 'echo "$0" > seed.txt', '${DB_PASSWORD}']}
                  revert: {command: [sh, -c, 'rm seed.txt', '${DB_PASSWORD}']}

            """
        try work.write(first, to: "milepost.yaml")
        let seeded = try MilepostBinary(directory: work.path, environment: ["DB_PASSWORD": "s3cret-pw"]).run("run", "--to", "1.5")
        #expect(seeded.status == 0, "\(seeded.stderr)")
        try work.write(first + """
              2.0:
                - {name: exec, id: later, with: {command: [touch, later]}, revert: {command: [rm, later]}}
                - {name: exec, id: needs, with: {command: [sh, -c, 'echo "$0" > needs.txt', '${DB_PASSWORD:-unset}']}, revert: {command: [rm, needs.txt]}}
            """, to: "milepost.yaml")
        let later = try work.milepost.run("run", "--to", "2.0")
        #expect(later.status == 0, "\(later.stderr)")
        #expect(work.exists("later") && (try? work.read("needs.txt")) == "unset\n")
        let revert = try work.milepost.run("revert", "--to", "1.5")
        #expect(revert.status == 0, "\(revert.stderr)")
        #expect(!work.exists("later"))
        // A step that runs still needs its variable: exit 65 before anything runs.
        let again = try work.milepost.run("run", "--to", "2.0")
        #expect(again.status == 0, "\(again.stderr)")
        let revertAll = try work.milepost.run("revert", "--to", "1.0")
        #expect(revertAll.status == 65, "\(revertAll.stderr)")
        #expect(revertAll.stderr.contains("milepost.yaml:7:49: error: step 'exec': variable 'DB_PASSWORD' is not set"), "\(revertAll.stderr)")

        #expect(work.exists("seed.txt") && work.exists("later"))
        // validate, given the values to check, still reports every unset variable.
        try work.write("OTHER=1\n", to: "empty.env")
        let validate = try work.milepost.run("validate", "--env-file", "empty.env")
        #expect(validate.status == 65 && validate.stderr.contains("variable 'DB_PASSWORD' is not set"), "\(validate.stderr)")
    }

    /// `${REGION}` inside an `sh -c` script ran its value as shell code (`eu; touch pwned`), and
    /// `validate` said only "substitutes ${REGION}". It warns at the use, showing the safe form (the
    /// value as an argument after the script, read there as "$1"), `--strict` refuses it, and the
    /// safe form is clean — in a `revert:` too (issue 42, item 7).
    @Test func aVariableSubstitutedIntoAShellScriptIsAWarningThatShowsTheSafeForm() throws {
        let work = try WorkDirectory()
        try work.write("""
            variables: [REGION]
            migrations:
              "1.0":
                - name: exec
                  id: deploy
                  with: {command: [sh, -c, 'deploy --region ${REGION}']}
                  revert: {command: [/bin/bash, -o, pipefail, -ec, 'undeploy --region "${REGION}"']}
            """, to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 0, "\(validate.stderr)")
        let advice = "where its value runs as shell code (a ';' or '$(…)' in it runs a command); pass it as an argument after "
            + "the script and read it there quoted: "
        #expect(validate.stderr.contains("milepost.yaml:6:32: warning: step 'exec': ${REGION} is substituted into the text of the 'sh -c' script, "
            + advice + "[sh, -c, '… \"$1\" …', sh, '${REGION}']"), "\(validate.stderr)")
        #expect(validate.stderr.contains("milepost.yaml:7:56: warning: step 'exec': ${REGION} is substituted into the text of the 'bash -c' script, "
            + advice + "[bash, -c, '… \"$1\" …', bash, '${REGION}']"), "\(validate.stderr)")
        #expect(try work.milepost.run("validate", "--strict").status == 65)

        try work.write("""
            variables: [REGION]
            migrations:
              "1.0":
                - name: exec
                  id: deploy
                  with: {command: [sh, -c, 'echo deploy --region "$1" > deployed.txt', sh, '${REGION}']}
                  revert: {command: [bash, -ec, 'undeploy --region "$1"', bash, '${REGION}']}
            """, to: "milepost.yaml")
        let safe = try work.milepost.run("validate", "--strict")
        #expect(safe.status == 0, "\(safe.stderr)")
        var milepost = work.milepost
        milepost.environment = ["REGION": "eu; touch pwned"]
        #expect(try milepost.run("run", "--to", "1.0").status == 0)
        #expect(try work.read("deployed.txt") == "deploy --region eu; touch pwned\n")
        #expect(!work.exists("pwned"))
    }

    /// Running as root, an env file another user could have written (the file, or a directory above
    /// it, writable by others or owned by another user) gave its values to commands root runs. It
    /// is refused, as ssh refuses such keys, before anything runs (issue 42, item 7).
    @Test(.enabled(if: geteuid() == 0, "needs root: the check is for runs as root"))
    func asRootAnEnvFileAnotherUserCouldWriteIsRefused() throws {
        let work = try WorkDirectory()
        try work.write("""
            variables: [REGION]
            migrations:
              "1.0": [{name: exec, id: deploy, with: {command: [sh, -c, 'echo "$0" > deployed.txt', '${REGION}']}}]
            """, to: "milepost.yaml")
        try FileManager.default.createDirectory(atPath: work.path + "/conf", withIntermediateDirectories: false)
        try work.write("REGION=eu\n", to: "conf/prod.env")
        let file = work.path + "/conf/prod.env", directory = work.path + "/conf"
        chmod(directory, 0o755)
        for (change, problem) in [
            ({ chmod(file, 0o666) }, "conf/prod.env is writable by every user (mode 666)"),
            ({ chmod(file, 0o620) | chown(file, 0, 1000) }, "conf/prod.env is writable by group 1000 (mode 620)"),
            ({ chown(file, 1000, 0) }, "conf/prod.env belongs to user 1000, not root"),
            ({ chmod(directory, 0o777) }, "its directory \(directory) is writable by every user (mode 777)"),
        ] as [(() -> Int32, String)] {
            chmod(file, 0o600); chown(file, 0, 0); chmod(directory, 0o755)
            #expect(change() == 0)
            let run = try work.milepost.run("run", "--to", "1.0", "--env-file", "conf/prod.env")
            #expect(run.status == 65, "\(run.stderr)")
            #expect(run.stderr.contains("conf/prod.env: error: refusing to read the env file as root: "), "\(run.stderr)")
            #expect(run.stderr.contains(problem), "\(run.stderr)")
            #expect(!work.exists("deployed.txt"))
        }
        chmod(file, 0o600); chown(file, 0, 0); chmod(directory, 0o755)
        let run = try work.milepost.run("run", "--to", "1.0", "--env-file", "conf/prod.env")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try work.read("deployed.txt") == "eu\n")
    }
}

