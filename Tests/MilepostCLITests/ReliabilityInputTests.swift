import Foundation
import Testing

/// Hostile values on the command line and inside an otherwise valid manifest: each is refused as a
/// usage error (64) or a located manifest error (65), never a crash and never silently changed.
@Suite struct ReliabilityInputTests {
    static let manifest = "migrations:\n  1.0: [{name: exec, id: a, with: {command: [\"true\"]}}]\n"

    // MARK: - --max-manifest-size

    @Test func theLargestManifestSizeIsAcceptedWithoutOverflow() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("validate", "--max-manifest-size", "\(Int.max)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("milepost.yaml: ok, 1 step"))
    }

    @Test(arguments: [["--max-manifest-size=-1"], ["--max-manifest-size", "-5"], ["--max-manifest-size=1e3"]])
    func aNegativeOrNonNumericManifestSizeIsAUsageError(option: [String]) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let validate = try work.milepost.run(["validate"] + option)
        #expect(validate.status == 64, "\(validate.stderr)")
        #expect(validate.stderr.contains("--max-manifest-size"))
        // An up-to-date store: the pre-start fast path must refuse the value as the parser does.
        #expect(try work.milepost.run("baseline", "1.0").status == 0)
        let run = try work.milepost.run(["run", "--to", "1.0"] + option)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--max-manifest-size"))
    }

    // MARK: - Versions are ASCII

    /// "1.1" followed by a combining acute accent or a variation selector is one grapheme cluster
    /// that sorts between "1.0" and "1.2" as a `Character`; it is no version anywhere.
    @Test(arguments: ["1.1\u{301}", "1.1\u{FE0F}", "1\u{301}.1", "1.1\u{20E3}"])
    func aVersionWithNonASCIICharactersIsRefusedEverywhere(version: String) throws {
        let work = try WorkDirectory()
        try work.write(
            "migrations:\n  1.0: [{name: exec, id: a, with: {command: [\"true\"]}}]\n  \"\(version)\": [{name: exec, id: b, with: {command: [\"true\"]}}]\n",
            to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 65, "\(validate.stderr)")
        #expect(validate.stderr.contains("milepost.yaml:3:3: error: invalid version"), "\(validate.stderr)")

        try work.write(Self.manifest, to: "milepost.yaml")
        for arguments in [["run", "--to", version], ["baseline", version], ["plan", "--to", version]] {
            let result = try work.milepost.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(!work.exists(".milepost/state.json"), "\(arguments) stored a version")
        }
        let fromEnvironment = try MilepostBinary(directory: work.path, environment: ["MILEPOST_TO": version]).run("run")
        #expect(fromEnvironment.status == 64, "\(fromEnvironment.stderr)")
        #expect(!work.exists(".milepost/state.json"))
    }

    /// The steps under a threshold that is not a version are still checked: every mistake of the
    /// file is reported at once (issue 25, item 11).
    @Test func validateReportsTheStepsUnderAnInvalidThresholdToo() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1.0: [{name: exec, id: a, with: {command: ["true"]}}]
              1.x:
                - {name: exce, id: b}
                - {name: exec, id: c, with: {comand: ["true"]}}
              2.0: [{name: exec, id: d, idempotent: maybe, with: {command: ["true"]}}]
            """, to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 65, "\(validate.stderr)")
        for line in [3, 4, 5, 6] {
            #expect(validate.stderr.contains("milepost.yaml:\(line):"), "line \(line): \(validate.stderr)")
        }
        #expect(validate.stderr.contains("milepost.yaml: 4 errors"), "\(validate.stderr)")
    }

    // MARK: - exec arguments and environment

    /// Each refused at the value it is about (`at`: where that value is written in `with`).
    @Test(arguments: [
        (#"command: [sh, "-c", "echo \"a\0b\""]"#, "'command[2]': an argument cannot contain a NUL character", #""echo"#),
        (#"command: ["true"], env: {"PATH=/tmp/evil:/usr/bin;X": "1"}"#, "the variable name 'PATH=/tmp/evil:/usr/bin;X' cannot contain '='", #""1""#),
        (#"command: ["true"], env: {OK: "x\0y"}"#, "the value of 'OK' cannot contain a NUL character", #""x"#),
        (#"command: ["true"], env: {"A\0B": "x"}"#, "a variable name cannot contain a NUL character", #""x""#),
        (#"command: ["true"], env: {"": "x"}"#, "an environment variable needs a name", #""x""#),
    ])
    func anExecValueThatWouldBeCutOrSetAnotherVariableIsRefused(with: String, message: String, at value: String) throws {
        let work = try WorkDirectory()
        let entry = "    - {name: exec, id: a, with: {\(with)}}"
        try work.write("migrations:\n  1.0:\n\(entry)\n", to: "milepost.yaml")
        let column = try #require(entry.range(of: value)).lowerBound.utf16Offset(in: entry) + 1
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 65, "\(validate.stderr)")
        #expect(validate.stderr.contains("milepost.yaml:3:\(column):"), "\(validate.stderr)")
        #expect(validate.stderr.contains(message), "\(validate.stderr)")
        let run = try work.milepost.run("run", "--to", "1.0")
        #expect(run.status == 65, "\(run.stderr)")
        #expect(!work.exists(".milepost/state.json"))
    }
}
