import Foundation
public import Milepost

/// An upgrade in a test, in one expression (like Room's `MigrationTestHelper`): a real file store in
/// a fresh temporary directory, seeded at a version (or fresh), a manifest given as text and a
/// registry; `run(to:)` runs the real `Runner` and returns what a test asserts on. No mocks: the
/// only thing touched is the temporary directory, removed when the scenario goes away.
///
/// ```swift
/// let result = try await UpgradeScenario(manifest: yaml, registry: registry, seededAt: Version("2.1")!)
///     .run(to: Version("2.7")!)
/// #expect(result.ran == ["2.7/capRunawayDailys"])
/// ```
public final class UpgradeScenario: Sendable {
    /// The temporary directory holding the manifest (`milepost.yaml`) and the store (`store/`).
    public let directory: String
    /// The scenario's store: a `FileStore` in `directory/store`.
    public let store: FileStore
    let registry: StepRegistry

    /// - Parameters:
    ///   - manifest: the manifest's YAML text, written to `directory/milepost.yaml`.
    ///   - seededAt: the stored version before the run (as `baseline` would set it); nil for a fresh store.
    public init(manifest: String, registry: StepRegistry, seededAt version: Version? = nil) async throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("milepost-scenario-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: directory + "/milepost.yaml"))
        store = FileStore(directory: directory + "/store")
        self.registry = registry
        if let version { _ = try await Runner(store: store).baseline(version) }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Runs the manifest's pending steps up to `target` with the real runner.
    public func run(to target: Version, options: RunOptions = RunOptions()) async throws -> UpgradeResult {
        let journalBefore = try await store.readJournal().count
        let report = try await Runner(store: store, options: options).run(to: target) { [directory, registry] in
            try Manifest.load(path: directory + "/milepost.yaml", registry: registry)
        }
        let journal = try await store.readJournal()
        return UpgradeResult(report: report, state: try await store.readState(), journal: Array(journal.dropFirst(journalBefore)))
    }
}

/// What one scenario run did.
public struct UpgradeResult: Sendable {
    /// The runner's report.
    public let report: RunReport
    /// The stored state after the run.
    public let state: StoredState?
    /// The journal records this run appended, oldest first.
    public let journal: [JournalRecord]

    /// The ids of the steps that ran and succeeded, in the order they ran.
    public var ran: [String] { report.steps.filter { $0.status == .succeeded }.map(\.id) }
}
