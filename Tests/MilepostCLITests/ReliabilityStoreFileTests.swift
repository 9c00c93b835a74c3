import Foundation
import Testing

/// The files of a file store are Milepost's alone: a symbolic link planted among them is refused
/// (exit 74, naming it) and never followed, and a state the process may not read is told apart
/// from a corrupt one.
@Suite struct ReliabilityStoreFileTests {
    static let manifest = "migrations:\n  2: [{name: exec, with: {command: [touch, ran]}}]\n"
    static let precious = "precious: must not be read or written by milepost\n"

    /// A store at version 1 (every file present), then `name` replaced by a link to `target.txt`.
    static func storeWithLink(_ name: String, in work: WorkDirectory) throws {
        try work.write(manifest, to: "milepost.yaml")
        let baseline = try work.milepost.run("baseline", "1")
        #expect(baseline.status == 0, "\(baseline.stderr)")
        try work.write(precious, to: "target.txt")
        let link = work.path + "/.milepost/" + name
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: work.path + "/target.txt")
    }

    @Test(arguments: ["lock", "journal.jsonl", "state.json"])
    func aLinkInTheStoreIsRefusedAndNotFollowed(name: String) throws {
        let work = try WorkDirectory()
        try Self.storeWithLink(name, in: work)
        for command in [["run", "--to", "2"], ["status"], ["resolve", "2/exec", "--retry"], ["baseline", "2", "--force"]] {
            let result = try work.milepost.run(command)
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(".milepost/\(name) is a symbolic link"), "\(command): \(result.stderr)")
        }
        #expect(try work.read("target.txt") == Self.precious)
        #expect(!work.exists("ran"))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: work.path + "/.milepost/" + name)
        #expect(link == work.path + "/target.txt", "the link was replaced")
    }

    /// A link named like a crashed writer's temp file is removed as a link; its target is untouched.
    @Test func aLinkNamedLikeAStaleTempFileIsRemovedNotFollowed() throws {
        let work = try WorkDirectory()
        try Self.storeWithLink("state.json.tmp.1.2", in: work)
        let result = try work.milepost.run("run", "--to", "2")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try work.read("target.txt") == Self.precious)
        #expect(!FileManager.default.fileExists(atPath: work.path + "/.milepost/state.json.tmp.1.2"))
        #expect(work.exists("ran"))
    }

    /// A state this process may not read (EACCES) is not corrupt: the advice is to fix the access,
    /// never to move the state away and baseline (which would forget the completed steps).
    @Test func aStateThatMayNotBeReadIsNotCalledCorrupt() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("baseline", "1").status == 0)
        let path = work.path + "/.milepost/state.json"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(chmod(path, 0) == 0)
        var milepost = work.milepost
        // Root reads through file modes; without these capabilities it obeys them.
        if geteuid() == 0 { milepost.launcher = ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] }
        for command in [["run", "--to", "2"], ["status"]] {
            let result = try milepost.run(command)
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("cannot read the state in .milepost/state.json: open: Permission denied"), "\(result.stderr)")
            #expect(result.stderr.contains("give this user read access"), "\(result.stderr)")
            #expect(!result.stderr.contains("baseline VERSION"), "\(result.stderr)")
        }
        #expect(!work.exists("ran"))
        #expect(chmod(path, 0o644) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// A FIFO planted as `state.json` (by whoever owns the store directory) is refused at once — by
    /// the pre-start fast path too — instead of blocking every start waiting for a writer.
    @Test func aFIFOInPlaceOfTheStateIsRefusedWithoutWaiting() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        #expect(try work.milepost.run("baseline", "2").status == 0)
        let path = work.path + "/.milepost/state.json"
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        for command in [["run", "--to", "2"], ["run", "--to", "3"], ["status"]] {
            let (process, stdout, stderr) = try work.milepost.start(command)
            let result = MilepostBinary.finish(process, stdout, stderr, within: .seconds(20))
            #expect(result.status == 74, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("not a regular file"), "\(command): \(result.stderr)")
        }
        #expect(!work.exists("ran"))
    }
    /// Every file of the store is created owner-only (0600 under a umask of 022): `journal.jsonl`
    /// holds the tails of steps' stderr, so it is as private as `state.json`, and another user can
    /// read neither (`history` fails like `status`). A state temp file left by a crashed writer too.
    @Test func everyStoreFileIsCreatedOwnerOnly() throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        var milepost = work.milepost
        milepost.launcher = ["/bin/sh", "-c", #"umask 022 && exec "$0" "$@""#]
        #expect(try milepost.run("baseline", "1").status == 0)
        #expect(try milepost.run("run", "--to", "2").status == 0)
        var dying = milepost
        dying.environment["MILEPOST_FAILPOINT"] = "state-after-temp-write"
        _ = try dying.run("baseline", "2", "--force")
        let store = work.path + "/.milepost"
        let names = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
        #expect(names.contains { $0.hasPrefix("state.json.tmp.") }, "\(names)")
        for name in ["journal.jsonl", "lock", "state.json"] { #expect(names.contains(name), "\(names)") }
        for name in names {
            var status = stat()
            #expect(lstat(store + "/" + name, &status) == 0)
            #expect(status.st_mode & 0o7777 == 0o600, "\(name) has mode \(String(status.st_mode & 0o7777, radix: 8))")
        }
    }
}
