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

    /// Whether a release at `target` may start on a store at `stored` with this floor (nil: none).
    public static func admits(_ target: Version, stored: Version, floor: CompatibilityFloor?) -> Bool {
        target >= stored || floor.map { target >= $0.version } == true
    }

    /// Why a release at `target` may not start on a store at `stored`: it is below the floor, named
    /// with the contract step that raised it there, or the store has no floor.
    public static func refusal(of target: Version, stored: Version, floor: CompatibilityFloor?) -> String {
        guard let floor else {
            return "\(target) is below the stored version \(stored), and the store keeps no compatibility with older releases"
        }
        let cause = floor.step.map { "; the contract step \($0) made older releases incompatible" } ?? ""
        return "\(target) is below the store's compatibility floor \(floor.version) (stored version \(stored))\(cause)"
    }
}
