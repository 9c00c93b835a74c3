import Testing

/// `validate` warns about unquoted thresholds that other YAML tools read as one number.
@Suite struct NumericThresholdTests {
    @Test func unquotedThresholdsThatAreOneFloatGetAWarningWithBothPositions() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              2.1: [{name: exec, id: a, with: {command: ['true']}}]
              2.10: [{name: exec, id: b, with: {command: ['true']}}]
              "2.100": [{name: exec, id: c, with: {command: ['true']}}]
              2.7: [{name: exec, id: d, with: {command: ['true']}}]
            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 0, "a warning, not an error: \(result.stderr)")
        #expect(result.stderr.contains("""
            milepost.yaml:3:3: warning: thresholds '2.1' and '2.10' are the same number to other YAML tools, \
            which read them as one duplicate key: quote both ("2.1": and "2.10":)
            """), "\(result.stderr)")
        #expect(result.stderr.contains("milepost.yaml:2:3: note: '2.1' is here"), "\(result.stderr)")
        #expect(!result.stderr.contains("2.100"), "a quoted key is a string to every tool: \(result.stderr)")
        #expect(try work.milepost.run("validate", "--strict").status != 0)
    }

    @Test func quotedThresholdsGetNone() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "2.1": [{name: exec, id: a, with: {command: ['true']}}]
              "2.10": [{name: exec, id: b, with: {command: ['true']}}]
            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 0)
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }
}
