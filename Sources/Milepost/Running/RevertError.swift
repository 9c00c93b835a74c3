/// Why `milepost revert` refused before any revert ran.
public enum RevertError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Completed steps above the target cannot be undone: the whole revert is refused.
    case irreversible([RevertPlan.Irreversible])
    /// The target is not below the stored version: that is a `run`.
    case notBelow(target: Version, stored: Version)
    /// Nothing is stored: there is nothing to revert.
    case nothingStored
    /// A revert to `to` is unfinished: a `run`, or a revert to a higher version, waits until a revert
    /// to `to` (or lower) finishes.
    case unfinished(to: Version)

    public var description: String {
        switch self {
        case .irreversible(let steps):
            "cannot revert: \(steps.count == 1 ? "this completed step has" : "these completed steps have") no revert: "
                + steps.map { "\($0.id) (\($0.reason == .noRevert ? "no revert" : "no longer in the manifest"))" }
                    .joined(separator: ", ")
                + "; nothing was reverted"
        case .notBelow(let target, let stored):
            "nothing to revert: \(target) is not below the stored version \(stored)"
        case .nothingStored:
            "nothing to revert: the store records no version"
        case .unfinished(let to):
            "a revert to \(to) is unfinished"
        }
    }
}
