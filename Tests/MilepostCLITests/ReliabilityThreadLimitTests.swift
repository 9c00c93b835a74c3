import Foundation
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
        var milepost = work.milepost
        milepost.launcher = [
            "/usr/bin/setpriv", "--reuid=\(Self.uid)", "--regid=\(Self.uid)", "--clear-groups",
            "/usr/bin/prlimit", "--nproc=\(limit)", "--",
        ]
        let result = Self.finish(try milepost.start(["run", "--to", "1.1", "--store", work.path + "/store"]))
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
        var milepost = work.milepost
        milepost.launcher = [
            "/usr/bin/setpriv", "--reuid=\(Self.uid)", "--regid=\(Self.uid)", "--clear-groups", "/usr/bin/prlimit", "--nproc=1", "--",
        ]
        let result = Self.finish(try milepost.start(["run", "--to", "1.1", "--log-format", "json"]))
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
        // The other uid reads the manifest and the state (and may create SQLite's shared-memory file).
        let chmod = try Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "a+rwX", work.path])
        chmod.waitUntilExit()
        #expect(chmod.terminationStatus == 0)
        var milepost = work.milepost
        milepost.launcher = [
            "/usr/bin/setpriv", "--reuid=\(Self.uid)", "--regid=\(Self.uid)", "--clear-groups", "/usr/bin/prlimit", "--nproc=1", "--",
        ]
        let result = Self.finish(try milepost.start(["run", "--to", "1.1", "--store", store]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("up to date at 1.1"), "\(result.stderr)")
    }

    static func finish(_ started: (process: Process, stdout: Pipe, stderr: Pipe)) -> MilepostBinary.Result {
        MilepostBinary.finish(started.process, started.stdout, started.stderr, within: .seconds(30))
    }
}
