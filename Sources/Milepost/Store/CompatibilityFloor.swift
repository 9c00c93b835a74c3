/// How far below its version a store stays compatible: the lowest version whose release may still
/// start on it (`run --to T` below the stored version, T at or above the floor, exits 0 and runs
/// nothing). Kept in the state, so an older release reads it with its own, older manifest.
///
/// Raised to a contract step's threshold when the step completes (`StepPhase.contract`). A store
/// without a floor is compatible with its stored version only: what every store was before phases.
public struct CompatibilityFloor: Codable, Sendable, Equatable {
    /// The lowest compatible version.
    public var version: Version
    /// The contract step that raised the floor to `version`; nil when the floor is where the
    /// store's first manifest with contract steps found it (the version the store had then).
    public var step: String?

    public init(version: Version, step: String? = nil) {
        self.version = version
        self.step = step
    }

    /// Why a release at `target` may not start on a store at `stored` with this floor (nil: none);
    /// nil when it may. The one rule of the floor: `run` refuses with it (exit 3), and `wait`,
    /// `status --check` and `status`'s verdict through `Readiness`.
    public static func refusal(of target: Version, stored: Version, floor: CompatibilityFloor?) -> DowngradeRefusal? {
        target >= stored || floor.map({ target >= $0.version }) == true
            ? nil : DowngradeRefusal(target: target, stored: stored, floor: floor)
    }
}
