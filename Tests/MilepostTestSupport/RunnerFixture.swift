import Foundation
package import Milepost
package import Synchronization

/// A scratch directory, removed with everything in it when this goes away; `directory` is where
/// a file store in it goes.
package final class ScratchDirectory: Sendable {
    package let root: String
    package var directory: String { root + "/store" }

    package init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("milepost-store-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }
}

/// A registry of test steps that record what ran, a store (a scratch file store unless given)
/// and manifest helpers.
package final class RunnerFixture: Sendable {
    package let scratch: ScratchDirectory
    package let recorder = Recorder()
    package let store: any MilepostStore

    /// What the test steps saw, shared with their closures.
    package final class Recorder: Sendable {
        package let calls = Mutex<[String]>([])
        /// Ids of `breakable` steps that throw while listed here.
        package let broken = Mutex<Set<String>>([])

        package init() {}
    }

    /// Makes the `breakable` steps with these ids throw.
    package func breakSteps(_ ids: Set<String>) { recorder.broken.withLock { $0 = ids } }

    /// A manifest of `note` steps at 2.1 (two), 2.10 and 3.0 over the baseline 2.0: the runner
    /// tests' upgrade, on every store kind and on the file store.
    package static let upgrade = """
        app: titi
        baseline: "2.0"
        migrations:
          3.0:
            - note
          2.1:
            - note
            - name: note
              id: second
          2.10:
            - note
        """

    /// What keeps `store` for the fixture's life (a server store's scratch schema or database).
    private let keeper: (any Sendable)?

    /// A fixture over `store`, kept alive with `keeper`; nil: a file store in the scratch directory.
    package init(store: (any MilepostStore)? = nil, keeping keeper: (any Sendable)? = nil) throws {
        scratch = try ScratchDirectory()
        self.store = store ?? FileStore(path: scratch.directory)
        self.keeper = keeper
    }

    /// Every step run so far, in order, as `id` (or `id#attempt` from the second attempt on).
    package var ran: [String] { recorder.calls.withLock { $0 } }

    package func clearCalls() { recorder.calls.withLock { $0.removeAll() } }

    package struct Flaky: Decodable, Sendable {
        /// Attempts that fail before one succeeds.
        package var failures: Int
    }

    package struct Sleep: Decodable, Sendable {
        package var duration: Duration
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package var registry: StepRegistry { Self.registry(recording: recorder) }

    /// The pattern docs/library.md shows for a long step: units `1...total`, each appended to
    /// `done`; before each unit after `pauseAfter` it waits while `paused` (a minute at a time),
    /// and on cancellation (a timeout, a cancelled task) it commits the last unit done as its
    /// cursor and stops. An attempt resumes after the unit its cursor names.
    package final class Units: Sendable {
        package let total: Int
        package let pauseAfter: Int
        package let done = Mutex<[Int]>([])
        package let paused = Mutex(true)

        package init(_ total: Int, pauseAfter: Int) {
            self.total = total
            self.pauseAfter = pauseAfter
        }

        /// The step's body, to register.
        package var body: @Sendable (StepContext<NoParameters>) async throws -> Void {
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
    package static func registry(recording recorder: Recorder) -> StepRegistry {
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
    package func writeManifest(_ yaml: String, name: String = "milepost.yaml") throws -> String {
        let path = scratch.root + "/" + name
        try yaml.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Writes `yaml` as the manifest and loads it with `registry` (default: the test steps).
    package func manifest(_ yaml: String, registry: StepRegistry? = nil) throws -> Manifest {
        try Manifest.load(path: try writeManifest(yaml), registry: registry ?? self.registry)
    }

    package func runner(_ configure: (inout RunOptions) -> Void = { _ in }) -> Runner {
        var options = RunOptions()
        options.retryDelay = .zero
        options.lockTimeout = .seconds(5)
        configure(&options)
        return Runner(store: store, options: options)
    }

    package func run(_ manifest: Manifest, to target: String, _ configure: (inout RunOptions) -> Void = { _ in }) async throws -> RunReport {
        try await runner(configure).run(to: Version(target)!) { manifest }
    }

    package func state() async throws -> StoredState? { try await store.readState() }

    package func journal() async throws -> [JournalRecord] { try await store.readJournal() }

    /// The names of every file in the scratch root and the store directory.
    package func files() -> [String] {
        let fm = FileManager.default
        let top = (try? fm.contentsOfDirectory(atPath: scratch.root)) ?? []
        let store = (try? fm.contentsOfDirectory(atPath: scratch.directory)) ?? []
        return (top + store.map { "store/\($0)" }).sorted()
    }
}
