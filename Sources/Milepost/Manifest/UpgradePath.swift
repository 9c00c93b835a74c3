/// Where a manifest can upgrade a store from: `upgrade_from:` (the oldest stored version it can
/// upgrade) and `stops:` (versions every upgrade must reach on its way, in order, like GitLab's
/// required upgrade stops).
public struct UpgradePath: Sendable, Equatable {
    /// The oldest stored version this manifest upgrades; nil when any version can be upgraded.
    public var upgradeFrom: Version?
    /// Versions an upgrade may not jump over, ascending.
    public var stops: [Version]

    public init(upgradeFrom: Version? = nil, stops: [Version] = []) {
        self.upgradeFrom = upgradeFrom
        self.stops = stops.sorted()
    }

    /// The version a store at `from` must reach before it can go to `target`: `upgradeFrom` when
    /// `from` is below it, else the first stop strictly between the two; nil when the way is open
    /// (and always for a downgrade or a run that stays at `from`).
    public func requiredStop(from: Version, to target: Version) -> RequiredStop? {
        guard target > from else { return nil }
        if let upgradeFrom, from < upgradeFrom { return RequiredStop(version: upgradeFrom, kind: .upgradeFrom) }
        return stops.first { from < $0 && $0 < target }.map { RequiredStop(version: $0, kind: .stop) }
    }

    /// The highest stop (or `upgradeFrom`) at or below `from`: the last one a store at `from` reached.
    public func reachedStop(at from: Version) -> Version? {
        (stops + [upgradeFrom].compactMap { $0 }).filter { $0 <= from }.max()
    }
}

/// A version a store must reach, with an earlier release, before this manifest may upgrade it.
public struct RequiredStop: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// The manifest's `upgrade_from:`: the store is older than the oldest version it upgrades.
        case upgradeFrom = "upgrade_from"
        /// One of the manifest's `stops:` lies between the stored version and the target.
        case stop
        /// The store reached a stop (or `upgrade_from:`), and background steps at or below it
        /// have not finished: the background runner finishes them first (`StepPhase.background`).
        case background
    }

    /// The version to install (and run to) first.
    public let version: Version
    public let kind: Kind
    /// For `.background`: the unfinished background steps at or below `version`.
    public var steps: [String] = []

    public init(version: Version, kind: Kind, steps: [String] = []) {
        self.version = version
        self.kind = kind
        self.steps = steps
    }

    /// The refusal in words, for a store at `from` going to `target`.
    public func message(from: Version, to target: Version) -> String {
        switch kind {
        case .upgradeFrom:
            "this manifest upgrades stores at \(version) or later (upgrade_from), and this one is at \(from): "
                + "install the release for \(version) first and run it to \(version), then run this one to \(target)"
        case .stop:
            "\(version) is a required stop between \(from) and \(target): "
                + "install the release for \(version) first and run it to \(version), then run this one to \(target)"
        case .background:
            "\(version) is a required stop, and its background steps have not finished: \(steps.joined(separator: ", ")): "
                + "let the background runner finish them ('run --to \(version) --phase background'), then run this one to \(target)"
        }
    }
}
