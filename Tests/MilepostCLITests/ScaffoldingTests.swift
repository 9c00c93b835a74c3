import Foundation
import Testing

/// `milepost init` and `milepost new` on real files: comments and layout survive byte for byte.
@Suite struct ScaffoldingTests {
    @Test func initWritesAValidStarterAndNeverOverwrites() throws {
        let work = try WorkDirectory()
        let milepost = MilepostBinary(directory: work.path)
        let first = try milepost.run("init")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("milepost schema > milepost.schema.json"))
        #expect(first.stdout.contains("milepost validate"))
        #expect(first.stdout.contains("milepost plan --from 0 --to 0.1"))
        let text = try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8)
        #expect(text.hasPrefix("# yaml-language-server: $schema=milepost.schema.json\n"))
        #expect(try milepost.run("validate").status == 0)
        #expect(try milepost.run("plan", "--from", "0", "--to", "0.1").stdout.contains("0.1/hello"))

        try "# mine\n".write(toFile: work.path + "/milepost.yaml", atomically: false, encoding: .utf8)
        let second = try milepost.run("init")
        #expect(second.status == 64)
        #expect(second.stderr.contains("exists already"))
        #expect(try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8) == "# mine\n")
    }

    /// The edited text is the original with only the new lines inserted, at `line` (1-based).
    func expectInserted(_ inserted: [String], at line: Int, original: String, edited: String) {
        var lines = original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert(contentsOf: inserted, at: line - 1)
        #expect(edited == lines.joined(separator: "\n"))
    }

    @Test func newAppendsToAnExistingThresholdKeepingEveryOtherByte() throws {
        let work = try WorkDirectory()
        let original = """
            # Deploy steps.   (odd    spacing kept)
            app: demo   # the label
            migrations:
              2.1:
                # first the cleanup
                - name: exec
                  with: {command: ['true']}   # trailing comment

                # a comment after the steps
              '3.0':
                - name: exec
                  with:
                    command: ['true']
            baseline: "1"
            """
        try work.write(original, to: "milepost.yaml")
        let milepost = MilepostBinary(directory: work.path)
        // exec needs its `command`: the step is written, and validate says what to fill in.
        let result = try milepost.run("new", "2.1.0", "exec")
        #expect(result.status == 65)
        #expect(result.stdout.contains("added exec under 2.1.0"))
        #expect(result.stderr.contains("milepost.yaml:8:7: error: step 'exec': missing key 'command'"), "\(result.stderr)")
        let edited = try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8)
        expectInserted(["    - exec"], at: 8, original: original, edited: edited)

        // A new threshold goes in version order, above the comments of the next one; the last one after the rest.
        try work.write(original, to: "milepost.yaml")
        _ = try milepost.run("new", "2.5", "exec")
        expectInserted(["  \"2.5\":", "    - exec"], at: 9,
                       original: original, edited: try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8))
        try work.write(original, to: "milepost.yaml")
        _ = try milepost.run("new", "v4", "exec")
        expectInserted(["  \"v4\":", "    - exec"], at: 14,
                       original: original, edited: try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8))
    }

    @Test func newRefusesWhatItCannotEditAsLinesAndAnInvalidManifest() throws {
        let work = try WorkDirectory()
        let milepost = MilepostBinary(directory: work.path)
        let flow = "migrations:\n  2.1: [{name: exec, with: {command: ['true']}}]\n"
        try work.write(flow, to: "milepost.yaml")
        let refused = try milepost.run("new", "2.1", "exec")
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("not a block list"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8) == flow)
        try work.write("migrations:\n  2.1:\n    - exce\n", to: "milepost.yaml")
        #expect(try milepost.run("new", "2.2", "exec").status == 65)
        #expect(try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8) == "migrations:\n  2.1:\n    - exce\n")
    }

    /// A name the binary does not know, or one that is not a step name at all, is refused before
    /// anything is written (it would leave a manifest that no longer validates).
    @Test(arguments: ["exce", "a: {"])
    func newRefusesAnUnknownStepWithoutWriting(name: String) throws {
        let work = try WorkDirectory()
        let valid = "migrations:\n  2.1:\n    - name: exec\n      with: {command: ['true']}\n"
        try work.write(valid, to: "milepost.yaml")
        let refused = try work.milepost.run("new", "2.2", name)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("is not a registered step"), "\(refused.stderr)")
        #expect(try work.read("milepost.yaml") == valid)
    }
}
