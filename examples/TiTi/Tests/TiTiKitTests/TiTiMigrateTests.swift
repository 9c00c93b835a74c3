import Foundation
import Testing

/// The `titi-migrate` binary: the full milepost CLI with TiTi's steps and store.
@Suite struct TiTiMigrateTests {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary under test: `TITI_MIGRATE_BINARY` when set (CI: the static release build), else
    /// the debug build next to the test bundle.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["TITI_MIGRATE_BINARY"], !path.isEmpty { return path }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("titi-migrate").path
    }()

    /// Runs `titi-migrate` in `directory`.
    func titiMigrate(_ arguments: String..., in directory: String, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
        env["NO_COLOR"] = "1"
        process.environment = env.merging(environment) { $1 }
        let (stdout, stderr) = (Pipe(), Pipe())
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // The outputs here are a few lines: reading one pipe after the other cannot fill the other.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func listsTiTiStepsBesideTheBuiltinOnes() throws {
        let fixture = try TiTiFixture()
        let result = try titiMigrate("steps", in: fixture.directory)
        #expect(result.status == 0)
        for name in ["capRunawayDailys", "exec", "removeEmptyDailys"] {
            #expect(result.stdout.contains(name), "\(result.stdout)")
        }
        #expect(result.stdout.contains("removeEmptyDailys (idempotent, resumable, revision 1)\n"), "\(result.stdout)")
        let json = try titiMigrate("steps", "--format", "json", in: fixture.directory)
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["steps"] as? [[String: Any]]
        let resumable = try #require(steps).filter { $0["resumable"] as? Bool == true }.map { $0["name"] as? String }
        #expect(resumable == ["removeEmptyDailys"])
    }

    @Test func validateReportsABadDurationWhereItIs() throws {
        let fixture = try TiTiFixture()
        let manifest = try String(contentsOfFile: fixture.manifest, encoding: .utf8)
        try manifest.replacingOccurrences(of: "limit: 16h", with: "limit: 16 hours")
            .write(toFile: fixture.manifest, atomically: false, encoding: .utf8)
        let result = try titiMigrate("validate", in: fixture.directory)
        #expect(result.status == 65)
        #expect(result.stderr.contains(
            "milepost.yaml:10:21: error: step 'capRunawayDailys': 'limit': expected a duration (250ms, 30s, 1h30m, 1.5h), found the string \"16 hours\""),
            "\(result.stderr)")
    }

    @Test func thePlainRunLeavesRemoveEmptyDailysToTheBackgroundRun() throws {
        let fixture = try TiTiFixture()
        let original = try fixture.dataBytes()
        let plan = try titiMigrate("plan", "--to", "2.1", in: fixture.directory)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("waiting"), "\(plan.stdout)")
        let run = try titiMigrate("run", "--to", "2.1", in: fixture.directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try fixture.dataBytes() == original)
        // Ready for the release; not for a gate that needs the background work done.
        #expect(try titiMigrate("status", "--check", "--to", "2.1", in: fixture.directory).status == 0)
        #expect(try titiMigrate("status", "--check", "--require", "background", "--to", "2.1", in: fixture.directory).status == 4)

        let background = try titiMigrate("run", "--to", "2.1", "--phase", "background", in: fixture.directory)
        #expect(background.status == 0, "\(background.stderr)")
        #expect(try fixture.dailys().map(\.date) == TiTiUpgradeTests.nonEmptyDates)
        #expect(try titiMigrate("status", "--check", "--require", "background", "--to", "2.1", in: fixture.directory).status == 0)
        let again = try titiMigrate("run", "--to", "2.1", "--phase", "background", in: fixture.directory)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try fixture.dailys().map(\.date) == TiTiUpgradeTests.nonEmptyDates)
    }

    @Test func runHonoursTheLegacyVersionThroughTiTiStore() throws {
        let fixture = try TiTiFixture()
        try fixture.writeLegacyDefaults(["lastUpdateVersion": "2.1"])
        let legacy = ["TITI_DEFAULTS": fixture.legacyDefaults.path]
        let result = try titiMigrate("run", "--to", "2.7", "--format", "json", in: fixture.directory, environment: legacy)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"2.7/capRunawayDailys\""), "\(result.stdout)")
        #expect(!result.stdout.contains("\"2.1/removeEmptyDailys\""), "\(result.stdout)")
        #expect(try fixture.dailys().filter(\.isEmpty).count == 3)
        #expect(FileManager.default.fileExists(atPath: fixture.directory + "/.milepost/state.json"))
        let background = try titiMigrate("run", "--to", "2.7", "--phase", "background", in: fixture.directory, environment: legacy)
        #expect(background.status == 0, "\(background.stderr)")
        #expect(try fixture.dailys().filter(\.isEmpty).count == 3)
    }
}

/// `titi-migrate new`: a TiTi step without required parameters is added and validates at once.
@Suite struct TiTiNewStepTests {
    @Test func addsAStepUnderANewThresholdKeepingTheSampleByteForByte() throws {
        let fixture = try TiTiFixture()
        let original = try String(contentsOfFile: fixture.manifest, encoding: .utf8)
        let result = try TiTiMigrateTests().titiMigrate("new", "2.8", "removeEmptyDailys", in: fixture.directory)
        #expect(result.status == 0, "\(result.stderr)")
        let edited = try String(contentsOfFile: fixture.manifest, encoding: .utf8)
        #expect(edited == original.replacingOccurrences(
            of: "      with: {limit: 16h}\n", with: "      with: {limit: 16h}\n  \"2.8\":\n    - removeEmptyDailys\n"))
        #expect(try TiTiMigrateTests().titiMigrate("validate", in: fixture.directory).status == 0)
    }
}

/// `titi-migrate schema`: the manifest schema knows TiTi's own steps and their parameters, and the
/// sample manifest passes it under a real validator (`MILEPOST_CHECK_JSONSCHEMA`, see the main
/// package's SchemaValidator: disabled locally without it, and CI fails when it is disabled).
@Suite struct TiTiSchemaTests {
    static let checker = ProcessInfo.processInfo.environment["MILEPOST_CHECK_JSONSCHEMA"] ?? ""

    @Test(.enabled(if: !checker.isEmpty, "MILEPOST_CHECK_JSONSCHEMA is not set; point it at check-jsonschema"))
    func describesTiTiStepsAndAcceptsTheSample() throws {
        let checker = Self.checker
        let fixture = try TiTiFixture()
        let result = try TiTiMigrateTests().titiMigrate("schema", in: fixture.directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""enum": ["capRunawayDailys", "exec", "removeEmptyDailys"]"#), "\(result.stdout)")
        #expect(result.stdout.contains(#""description": "Cut days a forgotten timer ran through""#))
        #expect(result.stdout.contains(#""required": ["limit"]"#))
        #expect(result.stdout.contains(#""pattern": "^(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ms|s|m|h|d))+$""#))
        let schema = fixture.directory + "/schema.json"
        try result.stdout.write(toFile: schema, atomically: false, encoding: .utf8)

        func check(_ manifest: String) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: checker)
            process.arguments = ["--no-cache", "--schemafile", schema, manifest]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try check(fixture.manifest) == 0)
        // A limit that is not a duration is refused, as `validate` refuses it.
        let manifest = try String(contentsOfFile: fixture.manifest, encoding: .utf8)
        try manifest.replacingOccurrences(of: "limit: 16h", with: "limit: 16 hours")
            .write(toFile: fixture.manifest, atomically: false, encoding: .utf8)
        #expect(try check(fixture.manifest) == 1)
    }
}
