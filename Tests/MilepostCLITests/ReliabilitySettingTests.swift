import Foundation
import Testing

/// Empty settings are usage errors (exit 64), whether given as a flag or an environment variable:
/// an empty store must never mean the filesystem root, nor an empty manifest the default one.
@Suite struct ReliabilitySettingTests {
    static let manifest = "migrations:\n  1: [{name: exec, with: {command: [touch, ran]}}]\n"

    static let cases: [(arguments: [String], environment: [String: String], names: String)] = [
        (["run", "--to", "1", "--store", ""], [:], "--store"),
        (["run", "--to", "1", "--store="], [:], "--store"),
        (["status", "--store", ""], [:], "--store"),
        (["history", "--store", ""], [:], "--store"),
        (["plan", "--to", "1", "--store", ""], [:], "--store"),
        (["run", "--to", "1"], ["MILEPOST_STORE": ""], "MILEPOST_STORE"),
        (["status"], ["MILEPOST_STORE": ""], "MILEPOST_STORE"),
        (["baseline", "1"], ["MILEPOST_STORE": ""], "MILEPOST_STORE"),
        (["run", "--to", "1", "--manifest", ""], [:], "--manifest"),
        (["validate", "--manifest", ""], [:], "--manifest"),
        (["run", "--to", "1"], ["MILEPOST_MANIFEST": ""], "MILEPOST_MANIFEST"),
        (["validate"], ["MILEPOST_MANIFEST": ""], "MILEPOST_MANIFEST"),
        (["run", "--to", ""], [:], "--to"),
        (["run"], ["MILEPOST_TO": ""], "MILEPOST_TO"),
    ]

    @Test(arguments: cases.indices)
    func anEmptySettingIsAUsageError(index: Int) throws {
        let (arguments, environment, name) = Self.cases[index]
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.environment = environment
        let result = try milepost.run(arguments)
        #expect(result.status == 64, "\(arguments) \(environment): \(result.stderr)")
        #expect(result.stderr.contains(name), "\(result.stderr)")
        #expect(!work.exists("ran"))
        #expect(!work.exists(".milepost"))
    }

    /// On an up-to-date store the pre-start fast path answers `run` before the parser: it must
    /// refuse the same empty settings, not answer "up to date".
    @Test(arguments: [
        (["run", "--to", "1", "--manifest", ""], [String: String](), "--manifest"),
        (["run", "--to", "1", "--manifest="], [:], "--manifest"),
        (["run", "--to", "1"], ["MILEPOST_MANIFEST": ""], "MILEPOST_MANIFEST"),
        (["run", "--to", ""], [:], "--to"),
        (["run"], ["MILEPOST_TO": ""], "MILEPOST_TO"),
    ])
    func anEmptySettingIsAUsageErrorOnAnUpToDateStoreToo(arguments: [String], environment: [String: String], name: String) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1").status == 0)
        var milepost = work.milepost
        milepost.environment = environment
        let result = try milepost.run(arguments)
        #expect(result.status == 64, "\(arguments) \(environment): \(result.stderr)")
        #expect(result.stderr.contains(name), "\(result.stderr)")
    }
}
