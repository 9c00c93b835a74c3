import Foundation
import Testing

/// The default store is `.milepost` beside the manifest, not in the working directory: the same
/// manifest run from another directory finds the same store (issue 25, item 8).
@Suite struct ReliabilityDefaultStoreTests {
    /// A manifest in `app/` whose one step appends a line to `count` in the work directory.
    static func manifest(in work: WorkDirectory) throws {
        try work.write(
            "migrations:\n  1.0: [{name: exec, id: a, with: {command: [sh, -c, 'echo ran >> \"$0\"', \(work.path)/count]}}]\n",
            to: "app/milepost.yaml")
        try work.write("", to: "elsewhere/.keep")
    }

    @Test func theSameManifestFromAnotherDirectoryFindsTheSameStore() throws {
        let work = try WorkDirectory()
        try Self.manifest(in: work)
        let first = try work.milepost.run("run", "--manifest", "app/milepost.yaml", "--to", "1.0")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(work.exists("app/.milepost/state.json"))
        #expect(!work.exists(".milepost"))
        for (directory, manifest) in [(work.path + "/elsewhere", "../app/milepost.yaml"), ("/", work.path + "/app/milepost.yaml")] {
            let again = try MilepostBinary(directory: directory).run("run", "--manifest", manifest, "--to", "1.0")
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stderr.contains("up to date at 1.0"), "\(again.stderr)")
            // The full path (not the pre-start fast path) finds it too.
            let status = try MilepostBinary(directory: directory).run("status", "--manifest", manifest, "--to", "1.0", "--check")
            #expect(status.status == 0, "\(status.stdout)\(status.stderr)")
        }
        let fromEnvironment = try MilepostBinary(
            directory: work.path + "/elsewhere", environment: ["MILEPOST_MANIFEST": "../app/milepost.yaml"]).run("history")
        #expect(fromEnvironment.status == 0 && fromEnvironment.stdout.contains("run-finished"), "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        #expect(try work.read("count") == "ran\n")
    }

    /// A store left in the working directory by an earlier release is never silently replaced by a
    /// fresh one beside the manifest: the run is refused and says how to keep using it.
    @Test func aStoreInTheWorkingDirectoryIsNotSilentlyLeftBehind() throws {
        let work = try WorkDirectory()
        try Self.manifest(in: work)
        #expect(try work.milepost.run("baseline", "1.0").status == 0)
        #expect(work.exists(".milepost/state.json"))
        for command in [["run", "--to", "1.0"], ["status"], ["plan", "--to", "1.0"]] {
            let refused = try work.milepost.run(command + ["--manifest", "app/milepost.yaml"])
            #expect(refused.status == 64, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("pass --store .milepost"), "\(refused.stderr)")
            #expect(refused.stderr.contains("`mv .milepost app/.milepost`"), "\(refused.stderr)")
        }
        #expect(!work.exists("count") && !work.exists("app/.milepost"))
        let kept = try work.milepost.run("run", "--manifest", "app/milepost.yaml", "--store", ".milepost", "--to", "1.0")
        #expect(kept.status == 0 && kept.stderr.contains("up to date at 1.0"), "\(kept.stderr)")
        #expect(!work.exists("count"))
    }
}
