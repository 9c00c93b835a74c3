/// Every fuzz target, and the planted defects `fuzz/run.sh` checks it catches first.
package enum FuzzTargets {
    /// One target per input Milepost reads from outside the program or from a crash.
    package static let all: [FuzzTarget] = [
        .manifest, .manifestLock, .stateJSON, .stateLog, .journal, .envFile, .execControl, .storeURL, .duration, .version,
    ]

    /// Targets broken on purpose (a crash, a hang, a leak), never fuzzed for their own sake: a fuzz
    /// run that does not report each of them would miss a real defect of the same kind.
    package static let planted: [FuzzTarget] = [.plantedCrash, .plantedHang, .plantedLeak]

    /// The target named `name`, planted ones included.
    package static func named(_ name: String) -> FuzzTarget? {
        (all + planted).first { $0.name == name }
    }
}
