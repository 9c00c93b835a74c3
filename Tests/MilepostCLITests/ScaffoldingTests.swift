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
        let exec = ["- name: exec", "  id: b", "  with: {command: [\"true\"]}"]
        let result = try milepost.run("new", "2.1.0", "b", "--", "true")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("added exec 'b' under 2.1.0"))
        let edited = try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8)
        expectInserted(exec.map { "    " + $0 }, at: 8, original: original, edited: edited)
        #expect(try milepost.run("validate").status == 0)

        // A new threshold goes in version order, above the comments of the next one; the last one after the rest.
        try work.write(original, to: "milepost.yaml")
        _ = try milepost.run("new", "2.5", "b", "--", "true")
        expectInserted(["  \"2.5\":"] + exec.map { "    " + $0 }, at: 9,
                       original: original, edited: try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8))
        try work.write(original, to: "milepost.yaml")
        _ = try milepost.run("new", "v4", "b", "--", "true")
        expectInserted(["  \"v4\":"] + exec.map { "    " + $0 }, at: 14,
                       original: original, edited: try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8))
    }

    /// `new VERSION ID -- COMMAND ARGS…` writes a long-form exec step that validates, whose command
    /// reads back byte for byte however its arguments are written, and a later `new` still works.
    @Test func newWritesAnExecStepWithItsCommandQuotedForYAML() throws {
        let work = try WorkDirectory()
        let original = "migrations:\n  \"1.0\":\n    - name: exec\n      with: {command: ['true']}\n"
        try work.write(original, to: "milepost.yaml")
        let awkward = #"it's "quoted" \ back: #not a comment, {[ ]} *a &b !c %d @e `f` ${HOME} é 日本"# + "\ttab\nline\u{7F}\u{85}\u{2028}end"
        let script = #"printf '%s' "$1" > out.txt"#
        let added = try work.milepost.run("new", "2.0", "record", "--", "sh", "-c", script, "sh", awkward)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added exec 'record' under 2.0 in milepost.yaml"), "\(added.stdout)")
        let text = try work.read("milepost.yaml")
        #expect(text.hasPrefix(original))
        #expect(text.contains("  \"2.0\":\n    - name: exec\n      id: record\n      with: {command: [\"sh\", \"-c\", "), "\(text)")
        let validated = try work.milepost.run("validate")
        #expect(validated.status == 0, "\(validated.stderr)")

        // A second `new` still works: under the same threshold and under a new one; an id YAML would
        // read as a boolean is quoted.
        #expect(try work.milepost.run("new", "2.0", "second", "--", "true").status == 0)
        #expect(try work.milepost.run("new", "3.0", "yes", "--", "true").status == 0)
        #expect(try work.read("milepost.yaml").contains("      id: \"yes\"\n"))
        #expect(try work.milepost.run("validate").status == 0)

        let run = try work.milepost.run("run", "--to", "3.0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try work.read("out.txt") == awkward)
    }

    /// A `new` that cannot write a valid entry writes nothing and says why: the short form of exec
    /// (which cannot carry its `with:`), an id used twice under a threshold, an id that is not one.
    @Test(arguments: [["2.1", "exec"], ["1.0", "a", "--", "true"], ["2.1", "a b", "--", "true"]])
    func newThatWouldLeaveTheManifestInvalidChangesNothing(arguments: [String]) throws {
        let work = try WorkDirectory()
        let valid = "# kept\nmigrations:\n  \"1.0\":\n    - name: exec\n      id: a\n      with: {command: ['true']}\n"
        try work.write(valid, to: "milepost.yaml")
        let refused = try work.milepost.run(["new"] + arguments)
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("milepost.yaml would be invalid; nothing was written"), "\(refused.stderr)")
        #expect(try work.read("milepost.yaml") == valid)
        if arguments.count == 2 {
            #expect(refused.stderr.contains("step 'exec': missing key 'command'"), "\(refused.stderr)")
            #expect(refused.stderr.contains("milepost new 2.1 ID -- COMMAND ARGS..."), "\(refused.stderr)")
        }
        // The manifest is still valid, and the next `new` works.
        #expect(try work.milepost.run("validate").status == 0)
        #expect(try work.milepost.run("new", "2.1", "b", "--", "true").status == 0)
        #expect(try work.milepost.run("validate").status == 0)
    }

    @Test func newRefusesWhatItCannotEditAsLinesAndAnInvalidManifest() throws {
        let work = try WorkDirectory()
        let milepost = MilepostBinary(directory: work.path)
        let flow = "migrations:\n  2.1: [{name: exec, with: {command: ['true']}}]\n"
        try work.write(flow, to: "milepost.yaml")
        let refused = try milepost.run("new", "2.1", "b", "--", "true")
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("not a block list"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: work.path + "/milepost.yaml", encoding: .utf8) == flow)
        try work.write("migrations:\n  2.1:\n    - exce\n", to: "milepost.yaml")
        #expect(try milepost.run("new", "2.2", "b", "--", "true").status == 65)
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
