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
        let (process, stdout, stderr) = try milepost.start(["run", "--to", "1.1", "--store", work.path + "/store"])
        let result = MilepostBinary.finish(process, stdout, stderr, within: .seconds(30))
        #expect(result.status == 71, "\(result.stderr)")
        #expect(result.stderr.contains("milepost: error: cannot start the 15 threads a run needs: Resource temporarily unavailable"))
        #expect(result.stderr.contains("RLIMIT_NPROC"))
        #expect(!work.exists("ran.txt"))
        #expect(!work.exists("store"))
    }
}
