import Testing

/// Duration flags and `timeout:` through the real binary: compound and decimal forms, and why a bare number is refused.
@Suite struct DurationFlagTests {
    @Test func flagsTakeCompoundAndDecimalDurations() throws {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "2.1", "--lock-timeout", "1m30s", "--termination-grace", "1.5s")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try work.milepost.run("wait", "--to", "2.1", "--timeout", "0.5h", "--interval", "100ms").status == 0)
    }

    @Test func aBareNumberSaysWhichUnitsExist() throws {
        let work = try WorkDirectory()
        try work.write(ExitCodeTests.manifest, to: "milepost.yaml")
        let result = try work.milepost.run("run", "--to", "2.1", "--lock-timeout", "30")
        #expect(result.status == 64)
        #expect(result.stderr.contains(
            "The value '30' is invalid for '--lock-timeout <lock-timeout>': a bare number has no unit: "
                + "write 30s, 500ms, 5m or 1h (units: ms, s, m, h, d)"), "\(result.stderr)")
        #expect(!work.exists(".milepost"), "a refused flag ran something")
    }

    @Test func manifestTimeoutsTakeTheSameForms() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              "1":
                - {name: note, id: a, timeout: 1h30m}
                - {name: note, id: b, timeout: 90}
            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 65)
        #expect(result.stderr.contains(
            "milepost.yaml:4:36: error: invalid timeout '90': a bare number has no unit"), "\(result.stderr)")
        #expect(!result.stderr.contains("'1h30m'"), "\(result.stderr)")
    }
}
