import Foundation
import MilepostTestSupport
import Testing

/// A process or thread limit too low for the threads a run needs is exit 71 at once, before
/// anything is read or written: never a hang in the concurrency runtime, which retries a refused
/// thread every second for ever.
@Suite struct ReliabilityThreadLimitTests {
    /// A uid of its own, so that `RLIMIT_NPROC` (counted per real uid; root is exempt) counts only
    /// this run's threads.
    static let uid = "64123"

    /// `prlimit --nproc` under `setpriv`: at 1 and 4 the binary used to hang before its first line, at
    /// 8 it went on to the store (which this uid may not write: exit 74).
    @Test(arguments: [1, 4, 8])
    func aProcessLimitTooLowForTheRunsThreadsIsExit71AtOnce(limit: Int) throws {
        let work = try WorkDirectory()
        try work.write(ReliabilityFixture.recordingManifest(["1.1/once"]), to: "milepost.yaml")
        let result = Self.finish(try Self.limited(work, processes: limit).start(["run", "--to", "1.1", "--store", work.path + "/store"]))
        #expect(result.status == 71, "\(result.stderr)")
        #expect(result.stderr.contains("milepost: error: cannot start the 15 threads milepost needs: Resource temporarily unavailable"))
        #expect(result.stderr.contains("RLIMIT_NPROC"))
        #expect(!work.exists("ran.txt"))
        #expect(!work.exists("store"))
    }

    /// Under `--log-format json` the refusal is one JSON object too, at level `error`.
    @Test func theRefusalIsAJSONRecordUnderLogFormatJSON() throws {
        let work = try WorkDirectory()
        try work.write(ReliabilityFixture.recordingManifest(["1.1/once"]), to: "milepost.yaml")
        let result = Self.finish(try Self.limited(work, processes: 1).start(["run", "--to", "1.1", "--log-format", "json"]))
        #expect(result.status == 71, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        let record = try ReliabilityFixture.object(String(try #require(lines.first)))
        #expect(record["level"] as? String == "error")
        #expect((record["message"] as? String)?.contains("cannot start the 15 threads milepost needs") == true, "\(record)")
    }

    /// An up-to-date `run`, the pre-start hook's usual case, is answered on the main thread alone
    /// (the pre-start fast path, on the file store and on the SQLite store's one state row): under a
    /// limit of one task it still exits 0, where the full path exits 71.
    @Test(arguments: [".milepost", "sqlite:app.db"])
    func anUpToDateRunNeedsNoOtherThread(store: String) throws {
        let work = try WorkDirectory()
        try work.write(ReliabilityFixture.recordingManifest(["1.1/once"]), to: "milepost.yaml")
        let first = try work.milepost.run("run", "--to", "1.1", "--store", store)
        #expect(first.status == 0, "\(first.stderr)")
        try Self.shareWithTheOtherUID(work)
        let result = Self.finish(try Self.limited(work, processes: 1).start(["run", "--to", "1.1", "--store", store]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("up to date at 1.1"), "\(result.stderr)")
    }

    /// The fast path reads the state where the full path does: a commit that a killed holder left
    /// only in `state.log` (here the digest of an edited manifest, recorded by an up-to-date run
    /// killed after the log's fdatasync) is read from the log's last line, so the next up-to-date
    /// run is still answered on the main thread alone.
    @Test func anUpToDateCommitLeftInTheLogKeepsTheFastPath() throws {
        let work = try WorkDirectory()
        try work.write(ReliabilityFixture.recordingManifest(["1.1/once"]), to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1.1").status == 0)
        let old = try work.read(".milepost/state.json")
        try work.write(ReliabilityFixture.recordingManifest(["1.1/once"]) + "# edited\n", to: "milepost.yaml")
        var dying = work.milepost
        dying.environment["MILEPOST_FAILPOINT"] = "state-after-log-sync"
        let (process, stdout, stderr) = try dying.start(["run", "--to", "1.1"])
        _ = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        #expect(work.exists(".milepost/state.log"), "the digest's commit is only in the log")
        #expect(try work.read(".milepost/state.json") == old, "state.json still holds the old digest")

        try Self.shareWithTheOtherUID(work)
        let result = Self.finish(try Self.limited(work, processes: 1).start(["run", "--to", "1.1"]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("up to date at 1.1"), "\(result.stderr)")
        #expect(try work.read("ran.txt") == "1.1/once\n")
    }

    /// `milepost` run as `uid` under `prlimit --nproc=processes` (`setpriv`).
    static func limited(_ work: WorkDirectory, processes: Int) -> MilepostBinary {
        var milepost = work.milepost
        milepost.launcher = [
            "/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "/usr/bin/prlimit", "--nproc=\(processes)", "--",
        ]
        return milepost
    }

    /// Lets the other uid read the manifest and the state (and create SQLite's shared-memory file).
    static func shareWithTheOtherUID(_ work: WorkDirectory) throws {
        let chmod = try Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a+rwX", work.path])
        chmod.waitUntilExit()
        #expect(chmod.terminationStatus == 0)
    }

    static func finish(_ started: (process: Process, stdout: ExecClosingPipe, stderr: ExecClosingPipe)) -> MilepostBinary.Result {
        MilepostBinary.finish(started.process, started.stdout, started.stderr, within: .seconds(30))
    }
}
