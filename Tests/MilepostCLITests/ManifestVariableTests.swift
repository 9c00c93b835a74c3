import Foundation
import Testing

/// `${NAME}`, `${NAME:-default}`, `${NAME:?message}` in `with:` strings, from the environment and
/// `--env-file`, through the built binary.
@Suite struct ManifestVariableTests {
    static let manifest = """
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
            milepost.yaml:8:45: error: step 'exec': 'command[3]': variable 'DB_URL' is not set: set DB_URL to the database
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
        #expect(diagnostics.first?["line"] as? Int == 6)
        #expect(diagnostics.first?["column"] as? Int == 56)
        #expect((diagnostics.first?["message"] as? String)?.contains("variable 'DB_URL' is not set") == true)
        try work.write("DB_URL=x\n", to: "prod.env")
        #expect(try work.milepost.run("validate", "--env-file", "prod.env").status == 0)
    }

    @Test func malformedReferencesAndEnvFilesAreLocatedErrors() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1.0: [{name: exec, with: {command: [echo, '${DB_URL']}}]\n", to: "milepost.yaml")
        let syntax = try work.milepost.run("validate")
        #expect(syntax.status == 65)
        #expect(syntax.stderr.contains("milepost.yaml:2:45: error: step 'exec': 'command[1]': '${' without a closing '}'"), "\(syntax.stderr)")

        try work.write("migrations:\n  1.0: [{name: exec, with: {command: [echo]}}]\n", to: "milepost.yaml")
        try work.write("OK=1\nnot an entry\n", to: "bad.env")
        let badFile = try work.milepost.run("run", "--to", "1.0", "--env-file", "bad.env")
        #expect(badFile.status == 65, "\(badFile.stderr)")
        #expect(badFile.stderr.contains("bad.env:2:1: error: expected NAME=value"), "\(badFile.stderr)")
        let missing = try work.milepost.run("run", "--to", "1.0", "--env-file", "nope.env")
        #expect(missing.status == 66, "\(missing.stderr)")
    }
}
