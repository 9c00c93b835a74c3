import Foundation
import Milepost
import Synchronization

/// A registry of test steps that record what ran, a scratch store and manifest helpers.
final class RunnerFixture: Sendable {
    let scratch: StoreFixture.ScratchDirectory
    let recorder = Recorder()

    /// What the test steps saw, shared with their closures.
    final class Recorder: Sendable {
        let calls = Mutex<[String]>([])
        /// Ids of `breakable` steps that throw while listed here.
        let broken = Mutex<Set<String>>([])
    }

    /// Makes the `breakable` steps with these ids throw.
    func breakSteps(_ ids: Set<String>) { recorder.broken.withLock { $0 = ids } }

    init() throws {
        scratch = try StoreFixture.ScratchDirectory()
    }

    var store: FileStore { FileStore(path: scratch.directory) }

    /// Every step run so far, in order, as `id` (or `id#attempt` from the second attempt on).
    var ran: [String] { recorder.calls.withLock { $0 } }

    func clearCalls() { recorder.calls.withLock { $0.removeAll() } }

    struct Flaky: Decodable, Sendable {
        /// Attempts that fail before one succeeds.
        var failures: Int
    }

    struct Sleep: Decodable, Sendable {
        var duration: Duration
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var registry: StepRegistry { Self.registry(recording: recorder) }

    /// The pattern docs/library.md shows for a long step: units `1...total`, each appended to
    /// `done`; before each unit after `pauseAfter` it waits while `paused` (a minute at a time),
    /// and on cancellation (a timeout, a cancelled task) it commits the last unit done as its
    /// cursor and stops. An attempt resumes after the unit its cursor names.
    final class Units: Sendable {
        let total: Int
        let pauseAfter: Int
        let done = Mutex<[Int]>([])
        let paused = Mutex(true)

        init(_ total: Int, pauseAfter: Int) {
            self.total = total
            self.pauseAfter = pauseAfter
        }

        /// The step's body, to register.
        var body: @Sendable (StepContext<NoParameters>) async throws -> Void {
            { [self] context in
                var next = Int(context.resumeCursor ?? "0")! + 1
                while next <= total {
                    do {
                        if paused.withLock({ $0 }) && next > pauseAfter { try await Task.sleep(for: .seconds(60)) }
                        try Task.checkCancellation()
                    } catch {
                        try await context.commitCursor(String(next - 1))
                        throw error
                    }
                    done.withLock { $0.append(next) }
                    next += 1
                }
            }
        }
    }

    /// The test steps: `note`, `breakable`, `flaky`, `sleep`, `sleepSafely` (idempotent), plus `exec`.
    static func registry(recording recorder: Recorder) -> StepRegistry {
        var registry = StepRegistry.standard
        registry.register("note") { context in
            recorder.calls.withLock { $0.append(context.id) }
        }
        registry.register("breakable") { context in
            recorder.calls.withLock { $0.append(context.id) }
            if recorder.broken.withLock({ $0.contains(context.id) }) { throw Failure(description: "\(context.id) is broken") }
        }
        registry.register("flaky", parameters: Flaky.self) { context in
            recorder.calls.withLock { $0.append(context.attempt == 1 ? context.id : "\(context.id)#\(context.attempt)") }
            if context.attempt <= context.parameters.failures { throw Failure(description: "attempt \(context.attempt) failed") }
        }
        registry.register("sleep", parameters: Sleep.self) { context in
            recorder.calls.withLock { $0.append(context.id) }
            try await Task.sleep(for: context.parameters.duration)
        }
        registry.register("sleepSafely", parameters: Sleep.self, idempotent: true) { context in
            recorder.calls.withLock { $0.append(context.id) }
            try await Task.sleep(for: context.parameters.duration)
        }
        return registry
    }

    /// Writes `yaml` as the manifest and returns its path.
    @discardableResult
    func writeManifest(_ yaml: String, name: String = "milepost.yaml") throws -> String {
        let path = scratch.root + "/" + name
        try yaml.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Writes `yaml` as the manifest and loads it with `registry` (default: the test steps).
    func manifest(_ yaml: String, registry: StepRegistry? = nil) throws -> Manifest {
        try Manifest.load(path: try writeManifest(yaml), registry: registry ?? self.registry)
    }

    func runner(_ configure: (inout RunOptions) -> Void = { _ in }) -> Runner {
        var options = RunOptions()
        options.retryDelay = .zero
        options.lockTimeout = .seconds(5)
        configure(&options)
        return Runner(store: store, options: options)
    }

    func run(_ manifest: Manifest, to target: String, _ configure: (inout RunOptions) -> Void = { _ in }) async throws -> RunReport {
        try await runner(configure).run(to: Version(target)!) { manifest }
    }

    func state() async throws -> StoredState? { try await store.readState() }

    func journal() async throws -> [JournalRecord] { try await store.readJournal() }

    /// The names of every file in the scratch root and the store directory.
    func files() -> [String] {
        let fm = FileManager.default
        let top = (try? fm.contentsOfDirectory(atPath: scratch.root)) ?? []
        let store = (try? fm.contentsOfDirectory(atPath: scratch.directory)) ?? []
        return (top + store.map { "store/\($0)" }).sorted()
    }
}
