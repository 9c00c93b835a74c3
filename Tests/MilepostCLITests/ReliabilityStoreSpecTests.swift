import Foundation
import Testing

/// A `--store` value is a URL of a scheme the binary opens, or a directory path: a URL of any other
/// scheme (a typo, a database Milepost has no store for) is refused with exit 64, never opened as a
/// local directory named after the scheme (issue 25, item 7).
@Suite struct ReliabilityStoreSpecTests {
    static let manifest = "migrations:\n  1.0: [{name: exec, id: a, with: {command: [touch, ran]}}]\n"

    @Test(arguments: ["postgress://app:s3cret@db.internal/app", "mongodb://db/app", "redis://cache:6379", "POSTGRES://db/app", "x:"])
    func aStoreURLOfAnUnknownSchemeIsRefused(spec: String) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let scheme = String(spec[..<spec.firstIndex(of: ":")!])
        for arguments in [["run", "--to", "1.0", "--store", spec], ["status", "--store", spec], ["baseline", "1.0", "--store", spec]] {
            let result = try work.milepost.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("no store for the scheme '\(scheme):'"), "\(result.stderr)")
            // Each store's own form differs (`postgres://…`, `sqlite:PATH`): the schemes are named, no form
            // that no store takes (`sqlite://…` was shown once).
            #expect(result.stderr.contains("opens the URL schemes postgres:, postgresql:, mysql:, mariadb:, sqlite: and directory paths"), "\(result.stderr)")
            #expect(!result.stderr.contains("s3cret"))
        }
        let fromEnvironment = try MilepostBinary(directory: work.path, environment: ["MILEPOST_STORE": spec]).run("run", "--to", "1.0")
        #expect(fromEnvironment.status == 64, "\(fromEnvironment.stderr)")
        // Nothing ran and nothing was created: no directory named after the scheme, no default store.
        let entries = try FileManager.default.contentsOfDirectory(atPath: work.path)
        #expect(entries == ["milepost.yaml"], "\(entries)")
    }

    /// A directory whose name looks like a scheme is named as a path; an up-to-date store answers
    /// through the pre-start fast path as well.
    @Test func aDirectoryNamedLikeASchemeIsWrittenAsAPath() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let first = try work.milepost.run("run", "--to", "1.0", "--store", "./x:")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(work.exists("x:/state.json") && work.exists("ran"))
        let again = try work.milepost.run("run", "--to", "1.0", "--store", "./x:")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("up to date"), "\(again.stderr)")
        #expect(try work.milepost.run("run", "--to", "1.0", "--store", "x:").status == 64)
    }
}
