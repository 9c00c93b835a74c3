import Testing

/// `revert: none` through the built binary: a step with nothing to undo is reverted past without
/// running anything, is no longer completed, and runs again on the next run.
@Suite struct RevertNoneTests {
    @Test func revertingPastItRunsNothingAndARunRunsItAgain() throws {
        let work = try WorkDirectory()
        try work.write(RevertTests.manifest.replacingOccurrences(
            of: "revert: {command: [sh, -c, 'echo undo-c >> ran.txt']}", with: "revert: none"), to: "milepost.yaml")
        #expect(try work.milepost.run("validate").status == 0)
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)

        let dry = try work.milepost.run("revert", "--to", "1.0", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "  2.0/c  (revert: none: runs nothing)\n  2.0/b\n")

        let revert = try work.milepost.run("revert", "--to", "1.0")
        #expect(revert.status == 0, "\(revert.stderr)")
        #expect(try RevertTests.ran(work) == ["a", "b", "c", "undo-b"])
        #expect(try RevertTests.state(work)["completed"]?.array?.map { $0["id"]?.string } == ["1.0/a"])
        #expect(try work.milepost.run("run", "--to", "2.0").status == 0)
        #expect(try RevertTests.ran(work) == ["a", "b", "c", "undo-b", "b", "c"])
    }

    @Test func onlyAPlainNoneIsAccepted() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1":
                - {name: exec, id: a, with: {command: ['true']}, revert: "none"}
            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 65)
        #expect(result.stderr.contains("milepost.yaml:3:62: error: 'revert' must be a mapping of parameters, like 'with', or none"),
                "\(result.stderr)")
    }
}
