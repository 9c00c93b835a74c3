import Foundation
import MilepostTestSupport
import MilepostCLI
import Testing

/// `milepost --version`: the package version and the commit the binary was built from.
@Suite struct VersionOptionTests {
    /// Runs git in this checkout; nil when git fails (no git, or not a checkout: a source tarball).
    static func git(_ arguments: String...) -> String? {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", JSONSchema.repository.path] + arguments
        guard let output = try? ExecClosingPipe() else { return nil }
        git.standardOutput = output.fileHandleForWriting
        git.standardError = FileHandle.nullDevice
        guard (try? git.run()) != nil else { return nil }
        output.closeWritingEnd()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        return git.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// In a checkout the binary names a commit of it (HEAD when built after the last commit; CI
    /// checks that the installed package names HEAD exactly); outside one, the version alone.
    @Test func versionNamesTheReleaseAndTheCommit() throws {
        let work = try WorkDirectory()
        let result = try work.milepost.run("--version")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        guard Self.git("rev-parse", "HEAD") != nil else {
            #expect(result.stdout == MilepostRelease.version + "\n")
            return
        }
        let match = try #require(result.stdout.wholeMatch(of: #/(\S+) \(commit ([0-9a-f]{12})\)\n/#), "\(result.stdout)")
        let commit = String(match.output.2)
        #expect(String(match.output.1) == MilepostRelease.version)
        #expect(Self.git("merge-base", "--is-ancestor", commit, "HEAD") != nil, "\(commit) is not a commit of this checkout")
    }
}
