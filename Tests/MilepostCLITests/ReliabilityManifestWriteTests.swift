import Foundation
import Testing

/// `init` and `new` write the manifest whole or not at all: `init` on a full disk exits 73 with the
/// errno and leaves no half-written file; `new` replaces the file a link names, atomically, keeping
/// the link, the mode and the owner.
@Suite struct ReliabilityManifestWriteTests {
    static let manifest = "migrations:\n  \"1.0\":\n    - {name: exec, id: a, with: {command: [\"true\"]}}\n"

    /// The filesystem entry at `path` as `lstat` sees it.
    static func status(_ path: String) throws -> stat {
        var result = stat()
        try #require(lstat(path, &result) == 0, "lstat \(path)")
        return result
    }

    @Test func newWritesThroughALinkKeepingTheLinkTheModeAndTheOwner() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "real/milepost.yaml")
        let target = work.path + "/real/milepost.yaml"
        try #require(chmod(target, 0o640) == 0)
        // As root (CI), the file is given to another user: replacing it must keep that owner.
        let owner: uid_t = geteuid() == 0 ? 4321 : geteuid()
        let group: gid_t = geteuid() == 0 ? 4322 : getegid()
        try #require(chown(target, owner, group) == 0)
        try #require(symlink("real/milepost.yaml", work.path + "/milepost.yaml") == 0)
        let before = try Self.status(target)

        let result = try work.milepost.run("new", "2.0", "b", "--", "true")
        #expect(result.stdout.contains("added exec 'b' under 2.0 in milepost.yaml"), "\(result.stdout)\(result.stderr)")

        let link = try Self.status(work.path + "/milepost.yaml")
        #expect(link.st_mode & S_IFMT == S_IFLNK, "the link is still a link")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: work.path + "/milepost.yaml") == "real/milepost.yaml")
        let after = try Self.status(target)
        #expect(after.st_mode & S_IFMT == S_IFREG)
        #expect(after.st_mode & 0o7777 == 0o640)
        #expect(after.st_uid == owner && after.st_gid == group)
        #expect(after.st_ino != before.st_ino, "replaced by a rename, not rewritten in place")
        let text = try String(contentsOfFile: target, encoding: .utf8)
        #expect(text.hasPrefix(Self.manifest) && text.contains("\"2.0\":") && text.contains("- name: exec\n      id: b\n"), "\(text)")
        // The temp file was renamed: nothing else is left beside the manifest.
        #expect(try FileManager.default.contentsOfDirectory(atPath: work.path + "/real") == ["milepost.yaml"])
    }

    @Test func newThatCannotWriteExits73AndLeavesTheManifestAsItWas() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "ro/milepost.yaml")
        // A directory the temp file cannot be created in (not even by root: the bind is read-only).
        let milepost = work.milepost.inMountNamespace(#"mount --bind -o ro ro ro && exec "$@""#)
        let result = try milepost.run(["new", "2.0", "b", "--manifest", "ro/milepost.yaml", "--", "true"])
        #expect(result.status == 73, "\(result.stderr)")
        #expect(result.stderr.contains("milepost: could not write ro/milepost.yaml: open: Read-only file system"), "\(result.stderr)")
        #expect(try work.read("ro/milepost.yaml") == Self.manifest)
    }

    /// `$1` is milepost; a 4 KiB tmpfs filled up, then `init` into it.
    static let fullDisk = #"""
        set -u
        m=$1
        mkdir disk && mount -t tmpfs -o size=4k tmpfs disk || exit 90
        dd if=/dev/zero of=disk/filler bs=4k 2>/dev/null
        "$m" init --manifest disk/milepost.yaml; echo "init=$?"
        ls -a disk > listing.txt
        """#

    @Test func initOnAFullDiskExits73WithTheErrnoAndLeavesNoHalfWrittenFile() throws {
        let work = try WorkDirectory()
        let milepost = work.milepost.inMountNamespace(Self.fullDisk)
        let result = try milepost.run([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("init=73"), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("milepost: could not write disk/milepost.yaml: write: No space left on device"), "\(result.stderr)")
        #expect(try work.read("listing.txt").split(separator: "\n").sorted() == [".", "..", "filler"])
    }
}
