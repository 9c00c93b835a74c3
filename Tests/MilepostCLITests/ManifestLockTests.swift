import Foundation
import Testing

/// `milepost lock` and `validate --locked`, run as the built binary: an edited, a removed, an added
/// and a renamed step.
@Suite struct ManifestLockTests {
    static let released: [(threshold: String, id: String, extra: String)] = [("2.1", "a", ""), ("2.1", "b", ""), ("2.2", "c", "")]

    static func locked() throws -> WorkDirectory {
        let work = try WorkDirectory()
        try work.write(LateStepTests.manifest(released), to: "milepost.yaml")
        let lock = try work.milepost.run("lock")
        #expect(lock.status == 0)
        #expect(lock.stdout == "wrote milepost.lock: 3 steps\n")
        return work
    }

    @Test func theLockFileIsOneLinePerStepInRunOrderAndStable() throws {
        let work = try Self.locked()
        let text = try work.read("milepost.lock")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("# milepost.lock: written by `milepost lock`"))
        #expect(lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) } == ["2.1/a", "2.1/b", "2.2/c"])
        #expect(lines.dropFirst().allSatisfy { $0.split(separator: " ").last?.count == 16 })
        #expect(try work.milepost.run("lock").status == 0)
        #expect(try work.read("milepost.lock") == text)
        #expect(try work.milepost.run("validate", "--locked", "--strict").status == 0)
    }

    @Test func anEditedStepFailsAtItsManifestEntry() throws {
        let work = try Self.locked()
        try work.write(LateStepTests.manifest(Self.released).replacingOccurrences(of: "echo b", with: "echo B"), to: "milepost.yaml")
        let result = try work.milepost.run("validate", "--locked")
        #expect(result.status == 65)
        #expect(result.stderr.contains("milepost.yaml:5:14: error: 2.1/b changed since milepost.lock was written"))
        #expect(result.stderr.contains("note: milepost.lock:3 locks "))
        let github = try work.milepost.run("validate", "--locked", "--format", "github")
        #expect(github.stdout.hasPrefix("::error file=milepost.yaml,line=5,col=14::2.1/b changed since milepost.lock was written"))
    }

    /// A lock file checked out with CRLF line ends (git's `autocrlf`) locks the same steps: read by
    /// `Character`, it was one comment line, and an edited step passed (issue 47).
    @Test func aLockFileWithCRLFLineEndsStillCatchesAnEditedStep() throws {
        let work = try Self.locked()
        try work.write(try work.read("milepost.lock").replacingOccurrences(of: "\n", with: "\r\n"), to: "milepost.lock")
        #expect(try work.milepost.run("validate", "--locked", "--strict").status == 0)
        try work.write(LateStepTests.manifest(Self.released).replacingOccurrences(of: "echo b", with: "echo B"), to: "milepost.yaml")
        let result = try work.milepost.run("validate", "--locked")
        #expect(result.status == 65)
        #expect(result.stderr.contains("2.1/b changed since milepost.lock was written"))
    }

    @Test func aRemovedStepFailsAtItsLockLine() throws {
        let work = try Self.locked()
        try work.write(LateStepTests.manifest([("2.1", "a", ""), ("2.2", "c", "")]), to: "milepost.yaml")
        let result = try work.milepost.run("validate", "--locked")
        #expect(result.status == 65)
        #expect(result.stderr.contains("milepost.lock:3:1: error: 2.1/b is locked but no longer in milepost.yaml (a removed step)"))
    }

    @Test func anAddedStepIsAWarningNotAnError() throws {
        let work = try Self.locked()
        try work.write(LateStepTests.manifest(Self.released + [("2.3", "d", "")]), to: "milepost.yaml")
        let result = try work.milepost.run("validate", "--locked", "--format", "json")
        #expect(result.status == 0)
        let document = try JSONValue(parsing: result.stdout)
        #expect(document["lock_file"]?.string == "milepost.lock")
        let findings = document["diagnostics"]?.array ?? []
        #expect(findings.map { $0["severity"]?.string } == ["warning"])
        #expect(findings.first?["message"]?.string == "2.3/d is not in milepost.lock yet (an added step)")
        #expect(try work.milepost.run("validate", "--locked", "--strict").status == 65)
        #expect(try work.milepost.run("lock").status == 0)
        #expect(try work.milepost.run("validate", "--locked", "--strict").status == 0)
    }

    @Test func aRenameWithReplacesIsComparedWithTheLockedEntry() throws {
        let work = try WorkDirectory()
        let entry = "with: {command: [sh, -c, 'echo same']}"
        try work.write("migrations:\n  2.1: [{name: exec, id: old, \(entry)}]\n", to: "milepost.yaml")
        #expect(try work.milepost.run("lock").status == 0)
        try work.write("migrations:\n  2.1: [{name: exec, id: new, replaces: old, \(entry)}]\n", to: "milepost.yaml")
        let result = try work.milepost.run("validate", "--locked")
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: 2.1/new renames the locked 2.1/old (replaces:)"))
    }

    @Test func aMissingOrMalformedLockFileIsAnError() throws {
        let work = try WorkDirectory()
        try work.write(LateStepTests.manifest(Self.released), to: "milepost.yaml")
        let missing = try work.milepost.run("validate", "--locked")
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("milepost.lock: error: cannot read the lock file milepost.lock"))
        try work.write("2.1/a not-a-fingerprint\n", to: "other.lock")
        let malformed = try work.milepost.run("validate", "--locked", "--lock-file", "other.lock")
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("other.lock:1:1: error: a lock file line is ID FINGERPRINT"))
    }

    @Test func anInvalidManifestWritesNoLockFile() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  2.1: [exce]\n", to: "milepost.yaml")
        #expect(try work.milepost.run("lock").status == 65)
        #expect(!work.exists("milepost.lock"))
    }

    /// A lock file that cannot be written is 73 (as for `init` and `new`), with the errno.
    @Test func aLockFileThatCannotBeWrittenIs73() throws {
        let work = try WorkDirectory()
        try work.write(LateStepTests.manifest(Self.released), to: "milepost.yaml")
        let result = try work.milepost.run("lock", "--lock-file", "missing/milepost.lock")
        #expect(result.status == 73)
        #expect(result.stderr.contains("could not write missing/milepost.lock: open: No such file or directory"), "\(result.stderr)")
    }
}

/// A file a step reads as its definition (`sql`'s `file:`) is locked by its contents (issue 25, item 5).
@Suite struct DefinitionFileLockTests {
    @Test func aRewrittenSQLFileIsDriftForValidateLocked() throws {
        let work = try WorkDirectory()
        try work.write("UPDATE orders SET total = total * 100;\n", to: "backfill.sql")
        try work.write("app: shop\nmigrations:\n  \"2.0\":\n    - {name: sql, id: backfill, with: {file: backfill.sql}}\n", to: "milepost.yaml")
        #expect(try work.milepost.run("lock").status == 0)
        #expect(try work.milepost.run("validate", "--locked").status == 0)
        try work.write("DELETE FROM orders;\n", to: "backfill.sql")
        let result = try work.milepost.run("validate", "--locked")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("2.0/backfill changed since milepost.lock was written"), "\(result.stderr)")
    }
}
