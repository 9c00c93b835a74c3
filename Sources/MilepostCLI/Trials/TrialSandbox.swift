import FoundationEssentials
import Milepost

/// One trial's sandbox: a scratch directory, exported to the steps, `--setup` and `--verify` as
/// `MILEPOST_TEST_DIR` (with `MILEPOST_TEST_FROM`, the version the trial's data is at, empty for a
/// fresh install, and `MILEPOST_TEST_STORE`), and a fresh store (`TrialStores`).
struct TrialSandbox: Sendable {
    /// The scratch directory.
    let directory: String
    /// The trial's store, as `--store` takes it.
    let store: String
    /// The version the path starts from; nil for a fresh install.
    let from: Version?

    /// The sandbox of trial `number` under `root`, its directory created.
    init(number: Int, under root: String, stores: TrialStores, from: Version?) throws {
        directory = root + "/trial-\(number)"
        try FileManager.default.createDirectory(atPath: directory + "/data", withIntermediateDirectories: true)
        store = stores.spec(trial: number, in: directory)
        self.from = from
    }

    /// The variables its processes get besides the test's environment.
    var environment: [String: String] {
        ["MILEPOST_TEST_DIR": directory + "/data", "MILEPOST_TEST_FROM": from?.text ?? "", "MILEPOST_TEST_STORE": store]
    }
}
