import Foundation
public import Milepost
import MilepostSystem
import Synchronization

/// An upgrade in a test, in one expression (like Room's `MigrationTestHelper`): a real file store in
/// a fresh temporary directory, seeded at a version (or fresh, or with given steps completed), a
/// manifest given as text or as a file, and a registry; `run(to:)` runs the real `Runner` and
/// returns what a test asserts on, and `run(to:interruptingAt:)` stops a run at a step as a signal
/// would, so that the next `run(to:)` shows the resumption rules. No mocks: the only thing touched
/// is the temporary directory, removed when the scenario goes away.
///
/// ```swift
/// let result = try await UpgradeScenario(manifest: yaml, registry: registry, seededAt: Version("2.1"))
///     .run(to: Version("2.7"))
/// #expect(result.ran == ["2.7/capRunawayDailys"])
/// ```
public final class UpgradeScenario: Sendable {
    /// The temporary directory holding the manifest (`milepost.yaml`), the files copied beside it,
    /// and the store (`store/`). Steps resolve relative paths against it.
    public let directory: String
    /// The scenario's store: a `FileStore` in `directory/store`.
    public let store: FileStore
    let registry: StepRegistry

    /// A scenario whose manifest is `manifest`'s text, written to `directory/milepost.yaml`.
    /// - Parameters:
    ///   - seededAt: the stored version before the first run, as `baseline` sets it; nil for a
    ///     fresh store (unless `completed` is given: then the manifest's baseline).
    ///   - completed: ids of steps recorded as completed (with the manifest's fingerprints, so
    ///     nothing drifts), as a run that stopped after them leaves the store.
    /// - throws: the manifest's errors; `UpgradeScenarioError.unknownStep` for a `completed` id
    ///   the manifest lacks.
    public convenience init(
        manifest: String, registry: StepRegistry, seededAt version: Version? = nil, completed: [String] = []
    ) async throws {
        try await self.init(manifest: manifest, seededAt: version, completed: completed) { _ in registry }
    }

    /// A scenario whose manifest is `manifest`'s text, with the registry `registry` builds for the
    /// scenario's `directory`: the app's data directory in this test, handed to the steps as the
    /// app hands them its own (`DependentStepPlugin`).
    ///
    /// ```swift
    /// let scenario = try await UpgradeScenario(manifest: yaml, seededAt: "2.1") { directory in
    ///     StepRegistry().installing(NotesSteps.self, using: NotesDatabase(directory: directory))
    /// }
    /// ```
    /// - Parameters:
    ///   - seededAt, completed: as in `init(manifest:registry:seededAt:completed:)`.
    public convenience init(
        manifest: String, seededAt version: Version? = nil, completed: [String] = [],
        registry: (_ directory: String) throws -> StepRegistry
    ) async throws {
        try await self.init(registry: registry, seededAt: version, completed: completed, writeFiles: Self.writing(manifest))
    }

    /// A scenario whose manifest is the file at `manifestFile` — the one your app ships — copied
    /// to `directory/milepost.yaml`, with `files` (data your steps read or change) copied beside
    /// it, so the originals are never touched.
    /// - Parameters:
    ///   - seededAt, completed: as in `init(manifest:registry:seededAt:completed:)`.
    public convenience init(
        manifestFile: String, copying files: [String] = [], registry: StepRegistry, seededAt version: Version? = nil,
        completed: [String] = []
    ) async throws {
        try await self.init(manifestFile: manifestFile, copying: files, seededAt: version, completed: completed) { _ in registry }
    }

    /// A scenario of the manifest file your app ships, with `files` copied beside it, and the
    /// registry `registry` builds for the scenario's `directory`, where those copies are: give
    /// your steps that directory as your app gives them its data directory.
    ///
    /// ```swift
    /// let scenario = try await UpgradeScenario(manifestFile: shipped, copying: [sampleData], seededAt: "2.1") { directory in
    ///     StepRegistry().installing(TiTiSteps.self, using: DailyFile(inDataDirectory: directory))
    /// }
    /// ```
    /// - Parameters:
    ///   - seededAt, completed: as in `init(manifest:registry:seededAt:completed:)`.
    public convenience init(
        manifestFile: String, copying files: [String] = [], seededAt version: Version? = nil, completed: [String] = [],
        registry: (_ directory: String) throws -> StepRegistry
    ) async throws {
        try await self.init(
            registry: registry, seededAt: version, completed: completed, writeFiles: Self.copying(manifestFile, files))
    }

    /// Writes `manifest` as `milepost.yaml` in the directory it is given.
    static func writing(_ manifest: String) -> @Sendable (String) throws -> Void {
        { directory in try Data(manifest.utf8).write(to: URL(fileURLWithPath: directory + "/milepost.yaml")) }
    }

    /// Copies `manifestFile` as `milepost.yaml`, and `files` under their own names, into the directory it is given.
    static func copying(_ manifestFile: String, _ files: [String]) -> @Sendable (String) throws -> Void {
        { directory in
            for file in [manifestFile] + files {
                let name = file == manifestFile ? "milepost.yaml" : (file as NSString).lastPathComponent
                try FileManager.default.copyItem(atPath: file, toPath: directory + "/" + name)
            }
        }
    }

    init(
        registry: (_ directory: String) throws -> StepRegistry, seededAt version: Version?, completed: [String],
        writeFiles: (String) throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("milepost-scenario-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        do {
            self.registry = try registry(directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        self.directory = directory
        store = FileStore(path: directory + "/store")
        try writeFiles(directory)
        if version != nil || !completed.isEmpty {
            try await seed(at: version, completed: completed)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// The scenario's manifest, loaded with its registry.
    public func manifest() throws -> Manifest {
        try manifest(registry: registry)
    }

    private func manifest(registry: StepRegistry) throws -> Manifest {
        try Manifest.load(path: directory + "/milepost.yaml", registry: registry)
    }

    /// Runs the manifest's pending steps up to `target` with the real runner.
    public func run(to target: Version, options: RunOptions = RunOptions()) async throws -> UpgradeResult {
        let journalBefore = try await store.readJournal().count
        let calls = Mutex<[UpgradeResult.StepCall]>([])
        let observed = registry.observing { id, parameters in
            calls.withLock { $0.append(UpgradeResult.StepCall(id: id, parameters: parameters)) }
        }
        let report = try await Runner(store: store, options: options).run(to: target) { try self.manifest(registry: observed) }
        let journal = try await store.readJournal()
        return UpgradeResult(
            report: report, state: try await store.readState(), journal: Array(journal.dropFirst(journalBefore)),
            calls: calls.withLock { $0 })
    }

    /// Runs toward `target` and stops the run as SIGTERM to the runner would, the moment step `id`
    /// starts: the step is cancelled before its body goes on, recorded in the store as
    /// interrupted (left in progress, `step-interrupted` journaled), and no later step starts — the
    /// state the next `run(to:)` meets after a crash at that step. Outcome `.interrupted`.
    /// - throws: `UpgradeScenarioError.stepNeverStarted` when the run never started `id`.
    public func run(to target: Version, interruptingAt id: String, options: RunOptions = RunOptions()) async throws -> UpgradeResult {
        var options = options
        let progress = options.onProgress
        options.onProgress = { event in
            progress?(event)
            // Progress is reported on the run's own task: cancelling it is what a signal does.
            if case .stepStarted(id, _, _, _) = event { withUnsafeCurrentTask { $0?.cancel() } }
        }
        let result = try await Task { [options] in try await self.run(to: target, options: options) }.value
        guard result.report.steps.contains(where: { $0.id == id && $0.status == .interrupted }) else {
            throw UpgradeScenarioError.stepNeverStarted(id, outcome: result.report.outcome)
        }
        return result
    }

    /// Reopens the store from disk, as the next start after a crash finds it: the files of `store/`
    /// are copied to a fresh `store/`, and the directory an abandoned run still holds the lock of is
    /// set aside (it writes nothing more: `RunAbandonment`).
    func reopenStoreFromDisk() throws {
        let path = directory + "/store"
        let aside = directory + "/store-abandoned-\(UUID().uuidString)"
        try FileManager.default.moveItem(atPath: path, toPath: aside)
        try FileManager.default.copyItem(atPath: aside, toPath: path)
    }

    /// Records `version` as `baseline` does, then the `completed` steps as done (journaled as
    /// `step-succeeded` of a run named `seed`).
    /// With `reached`, the store then stands at `reached`, as a store whose runs started at
    /// `version` and reached it (its late floor stays `version`).
    func seed(at version: Version?, completed ids: [String], reaching reached: Version? = nil) async throws {
        let manifest = try manifest()
        _ = try await Runner(store: store).maintenance.baseline(version ?? manifest.baseline)
        guard !ids.isEmpty || reached != nil else { return }
        let steps = try ids.map { id in
            guard let step = manifest.step(id: id) else { throw UpgradeScenarioError.unknownStep(id) }
            return step
        }
        let run = "seed"
        let holder = LockHolder(pid: ProcessIdentity.pid, host: ProcessIdentity.host, since: Timestamp.now(), run: run)
        try await store.withLock(timeout: .seconds(10), holder: holder) { locked in
            guard var state = try await locked.readState() else { preconditionFailure("baseline wrote no state") }
            state.completed += steps.map { CompletedStep(id: $0.id, at: Timestamp.now(), run: run, fingerprint: $0.fingerprint) }
            if let reached { state.version = reached }
            state.updatedAt = Timestamp.now()
            try await locked.commit(state, journal: steps.map {
                JournalRecord(
                    time: Timestamp.now(), run: run, event: .stepSucceeded, step: $0.id, attempt: 1, durationMs: 0,
                    host: ProcessIdentity.host, pid: ProcessIdentity.pid)
            })
        }
    }
}

/// A scenario used in a way that cannot describe a real upgrade.
public enum UpgradeScenarioError: Error, Equatable, CustomStringConvertible {
    /// A step to seed as completed is not in the manifest.
    case unknownStep(String)
    /// `run(to:interruptingAt:)` never started the step (it is not pending for the target).
    case stepNeverStarted(String, outcome: RunReport.Outcome)
    /// `UpgradePaths`' fresh install, the reference every path is compared with, did not reach its target.
    case freshInstallFailed(outcome: RunReport.Outcome)
    /// The uninterrupted upgrade from a version, the reference of its crash trials, did not reach its target.
    case uninterruptedUpgradeFailed(from: Version, outcome: RunReport.Outcome)

    public var description: String {
        switch self {
        case .uninterruptedUpgradeFailed(let from, let outcome):
            "the uninterrupted upgrade from \(from), to compare each interrupted one with, did not succeed (it ended \(outcome.rawValue))"
        case .unknownStep(let id): "the manifest has no step \(id) to seed as completed"
        case .stepNeverStarted(let id, let outcome): "the run never started \(id) (it ended \(outcome.rawValue))"
        case .freshInstallFailed(let outcome): "the fresh install to compare with did not succeed (it ended \(outcome.rawValue))"
        }
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
    /// Every attempt whose body the run started, in order, with the parameters the step was given.
    public let calls: [StepCall]

    /// One call of a step's body.
    public struct StepCall: Sendable {
        /// The step, as `THRESHOLD/ID`.
        public let id: String
        /// The step's decoded `with:`, of its registered parameter type (cast it: `as? MyParameters`).
        public let parameters: any Sendable
    }

    /// The ids of the steps that ran and succeeded, in the order they ran.
    public var ran: [String] { report.steps.filter { $0.status == .succeeded }.map(\.id) }
}
