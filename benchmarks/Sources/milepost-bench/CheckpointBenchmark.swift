import Logging
import Milepost
import MilepostYAML

/// The per-step overhead of a real run: `Runner.run` of `steps` no-op steps in a fresh file store.
/// Each step costs two checkpoints (started, succeeded), each a state write with two fsyncs and a
/// journal append with one fsync, plus a final commit for the run.
enum CheckpointBenchmark {
    static func run(directory: String, steps: Int) async throws {
        var registry = StepRegistry()
        registry.register("noop") { _ in }
        let source = ManifestSource(path: directory + "/milepost.yaml", bytes: GeneratedManifest.noop(steps: steps))
        let manifest = try Manifest.parse(source, registry: registry, limits: LoadBenchmark.limits)
        let runner = Runner(
            store: FileStore(path: directory + "/store"),
            logger: Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() })
        let target = try Version(parsing: "1.\(steps)")
        let clock = ContinuousClock()
        let start = clock.now
        let report = try await runner.run(to: target) { manifest }
        let elapsed = (clock.now - start).components
        guard report.outcome == .succeeded, report.steps.count == steps else {
            throw Failure(description: "the run ended \(report.outcome) after \(report.steps.count) steps")
        }
        let totalMs = Double(elapsed.seconds) * 1e3 + Double(elapsed.attoseconds) / 1e15
        Measure.report("steps", Double(steps))
        Measure.report("total_ms", totalMs)
        Measure.report("ms_per_step", totalMs / Double(steps))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}
