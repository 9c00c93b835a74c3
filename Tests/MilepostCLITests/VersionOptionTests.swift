import Foundation
import MilepostCLI
import Testing

/// `milepost --version`: the package version and the commit the binary was built from.
@Suite struct VersionOptionTests {
    /// The commit this checkout is at, as `scripts/build-info.sh` records it; nil outside git.
    static let checkoutCommit: String? = {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", JSONSchema.repository.path, "rev-parse", "--short=12", "HEAD"]
        let output = Pipe()
        git.standardOutput = output
        git.standardError = FileHandle.nullDevice
        guard (try? git.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        return git.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }()

    @Test func versionNamesTheReleaseAndTheCommit() throws {
        let work = try WorkDirectory()
        let result = try work.milepost.run("--version")
        #expect(result.status == 0)
        let expected = Self.checkoutCommit.map { "\(MilepostRelease.version) (commit \($0))" } ?? MilepostRelease.version
        #expect(result.stdout == expected + "\n")
        #expect(result.stderr.isEmpty)
    }
}
