public import Milepost

/// What TiTi does at every start, before it opens its data: run the one-time steps up to its version,
/// and find the "what's new" notice to show once, on the first launch of a new version.
///
/// ```swift
/// let started = try await TiTiLaunch(dataDirectory: dataDirectory, manifest: bundledManifest)
///     .start(at: Version("2.7"))
/// if let notice = started.whatsNew { show(notice) }
/// ```
public struct TiTiLaunch: Sendable {
    /// Holds `dailys.json` and the Milepost store `.milepost/`.
    public var dataDirectory: String
    /// The manifest shipped with the app.
    public var manifest: String
    public var legacyDefaults: LegacyDefaults

    public init(dataDirectory: String, manifest: String, legacyDefaults: LegacyDefaults = .standard()) {
        self.dataDirectory = dataDirectory
        self.manifest = manifest
        self.legacyDefaults = legacyDefaults
    }

    /// The registry TiTi's manifest is read with: its own steps, without `exec`.
    public static let registry = StepRegistry().installing(TiTiSteps.self)

    public var store: TiTiStore {
        TiTiStore(directory: dataDirectory + "/.milepost", legacyDefaults: legacyDefaults)
    }

    /// Runs every pending step up to `version`; when nothing is pending it reads only the state.
    public func migrate(to version: Version) async throws -> RunReport {
        let runner = Runner(store: store)
        return try await runner.run(to: version) { [manifest] in
            try Manifest.load(path: manifest, registry: Self.registry)
        }
    }

    /// The one-time notices, by the version that brings them.
    public static let whatsNew: [Version: String] = [
        Version("2.7"): "What's new in 2.7: a timer forgotten overnight no longer counts more than 16 hours a day.",
    ]

    /// What a start did: the run, and the notice to show now (nil when there is none).
    public struct Started: Sendable {
        public var report: RunReport
        public var whatsNew: String?
    }

    /// Runs the steps up to `version` and returns its "what's new" notice when this launch is the
    /// first of `version` after an upgrade: the store had reached an earlier version and never this
    /// one (asked before the run, which then records `version`), and the run succeeded. A fresh
    /// install shows nothing; a failed run shows nothing and the next launch asks again.
    public func start(at version: Version) async throws -> Started {
        let history = try await store.versionHistory()
        let firstAfterUpgrade = history.currentVersion != nil && history.isFirstLaunch(of: version)
        let report = try await migrate(to: version)
        let reached = report.outcome == .succeeded || report.outcome == .upToDate
        return Started(report: report, whatsNew: firstAfterUpgrade && reached ? Self.whatsNew[version] : nil)
    }
}
