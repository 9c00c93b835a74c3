/// A release refused by a store's compatibility floor (`CompatibilityFloor.refusal`): its version is
/// below the stored version and below the floor, or the store keeps no floor.
public struct DowngradeRefusal: Sendable, Equatable, CustomStringConvertible {
    /// The release that may not start.
    public let target: Version
    /// The store's version.
    public let stored: Version
    /// The store's floor; nil when it keeps none (compatible with its stored version only).
    public let floor: CompatibilityFloor?

    /// The lowest release that starts on the store: the floor, else the stored version. Rolling
    /// forward to it (or past it) is the way out; going below needs a forward fix, not a downgrade.
    public var lowestCompatible: Version { floor?.version ?? stored }

    /// The refusal in words, naming the contract step that raised the floor when one did.
    public var description: String {
        guard let floor else {
            return "\(target) is below the stored version \(stored), and the store keeps no compatibility with older releases"
        }
        let cause = floor.step.map { "; the contract step \($0) made older releases incompatible" } ?? ""
        return "\(target) is below the store's compatibility floor \(floor.version) (stored version \(stored))\(cause)"
    }
}
