public import Milepost

/// What TiTi does at every start, before it opens its data: run the one-time steps up to its version.
///
/// ```swift
/// let report = try await TiTiLaunch(dataDirectory: dataDirectory, manifest: bundledManifest)
///     .migrate(to: Version("2.7")!)
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
}
