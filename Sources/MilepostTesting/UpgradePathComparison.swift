public import Milepost

/// Where a run left a scenario, as `UpgradePaths` compares it.
public struct UpgradeEndState<App: Sendable>: Sendable {
    /// The stored version.
    public let version: Version?
    /// The ids of the steps the store records as completed, without the `when:` steps (a fresh
    /// install and an upgrade run different ones by design).
    public let completed: Set<String>
    /// The steps a run to the target would still run from this store, in plan order: pending,
    /// interrupted, running, or waiting for a run of another phase (`RunOptions.phase`).
    public let owed: [String]
    /// The app's own end state, as the `appState` closure read it.
    public let app: App
}

extension UpgradeEndState: Equatable where App: Equatable {}

/// One upgrade path next to the fresh install: what each ended with, and how they differ.
public struct UpgradePathComparison<App: Sendable>: Sendable, CustomStringConvertible {
    /// The version the path starts from, and the target.
    public let from: Version, to: Version
    /// The upgrade's run.
    public let result: UpgradeResult
    public let upgrade: UpgradeEndState<App>
    public let fresh: UpgradeEndState<App>
    /// Empty when the path ends where the fresh install does.
    public let differences: [UpgradePathDifference]

    /// Whether the path ends where the fresh install does.
    public var matches: Bool { differences.isEmpty }

    /// Compares: the upgrade's outcome (it must succeed, or find the store up to date), the
    /// stored version, the steps still owed, the app's state and — when `comparesCompleted`, that
    /// is when the fresh install runs its steps (`FreshInstallPolicy.runAll`; under `.record` it
    /// runs none and records its target instead) — the completed steps.
    init(
        from: Version, to: Version, result: UpgradeResult, upgrade: UpgradeEndState<App>, fresh: UpgradeEndState<App>,
        comparesCompleted: Bool
    ) where App: Equatable {
        (self.from, self.to, self.result, self.upgrade, self.fresh) = (from, to, result, upgrade, fresh)
        var differences: [UpgradePathDifference] = []
        let outcome = result.report.outcome
        if outcome != .succeeded, outcome != .upToDate { differences.append(.outcome(outcome)) }
        if upgrade.version != fresh.version { differences.append(.version(upgrade: upgrade.version, fresh: fresh.version)) }
        if comparesCompleted, upgrade.completed != fresh.completed {
            differences.append(.completed(
                onlyUpgrade: upgrade.completed.subtracting(fresh.completed).sorted(),
                onlyFresh: fresh.completed.subtracting(upgrade.completed).sorted()))
        }
        if upgrade.owed != fresh.owed { differences.append(.owed(upgrade: upgrade.owed, fresh: fresh.owed)) }
        if upgrade.app != fresh.app {
            differences.append(.app(upgrade: String(describing: upgrade.app), fresh: String(describing: fresh.app)))
        }
        self.differences = differences
    }

    public var description: String {
        matches ? "\(from) → \(to) ends where a fresh install of \(to) does"
            : UpgradePathMismatch.Path(from: from, to: to, differences: differences).description
    }
}

/// How an upgrade path's end differs from a fresh install's.
public enum UpgradePathDifference: Sendable, Equatable, CustomStringConvertible {
    /// The upgrade did not succeed: it ended with this outcome (a required stop, a failed step…).
    case outcome(RunReport.Outcome)
    /// The stored versions.
    case version(upgrade: Version?, fresh: Version?)
    /// Completed steps only one of them records, sorted.
    case completed(onlyUpgrade: [String], onlyFresh: [String])
    /// The steps each still owes (`UpgradeEndState.owed`).
    case owed(upgrade: [String], fresh: [String])
    /// The app's states, as `String(describing:)` shows them.
    case app(upgrade: String, fresh: String)

    public var description: String { description(upgrade: "the upgrade", other: "the fresh install") }

    /// The difference in words, the two ends named `upgrade` and `other` (a crash test compares a
    /// resumed upgrade with the uninterrupted one).
    func description(upgrade: String, other: String) -> String {
        func list(_ ids: [String]) -> String { ids.isEmpty ? "none" : ids.joined(separator: ", ") }
        return switch self {
        case .outcome(let outcome): "\(upgrade) ended \(outcome.rawValue)"
        case .version(let upgraded, let fresh): "stored version \(upgraded?.text ?? "none"), \(other)'s \(fresh?.text ?? "none")"
        case .completed(let upgraded, let fresh):
            "steps completed only by \(upgrade): \(list(upgraded)); only by \(other): \(list(fresh))"
        case .owed(let upgraded, let fresh): "steps still owed after \(upgrade): \(list(upgraded)); after \(other): \(list(fresh))"
        case .app(let upgraded, let fresh): "the app's state after \(upgrade) is \(upgraded), after \(other) \(fresh)"
        }
    }
}

/// `UpgradePaths.verify`: some upgrade paths do not end where a fresh install does.
public struct UpgradePathMismatch: Error, CustomStringConvertible {
    /// One path that differs.
    public struct Path: Sendable, CustomStringConvertible {
        public let from: Version, to: Version
        public let differences: [UpgradePathDifference]

        public var description: String {
            "\(from) → \(to) differs from a fresh install of \(to): " + differences.map(\.description).joined(separator: "; ")
        }
    }

    /// The paths that differ, in the order they were given.
    public let paths: [Path]

    public var description: String { paths.map(\.description).joined(separator: "\n") }
}
