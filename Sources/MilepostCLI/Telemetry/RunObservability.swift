import CoreMetrics
import FoundationEssentials
import Logging
import Milepost
import MilepostSystem
import Prometheus
import Synchronization
import Tracing

/// The metrics and traces backends of one `milepost run`: `--metrics-file` and the binary's
/// `TelemetryExporter`, bootstrapped once for the process before the run, finished after it.
struct RunObservability: Sendable {
    private let metricsFile: String?
    private let registry: PrometheusCollectorRegistry?
    private let session: TelemetryExporter.Session?

    /// Adds the current trace and span ids to log records; nil without a tracer.
    var logMetadata: Logger.MetadataProvider? { session?.logMetadata }

    /// Starts the exporter when its configuration asks for it and bootstraps swift-metrics (both
    /// backends at once when there are two) and the tracer. Bootstrapping is process-wide and
    /// happens at most once: call this once per process.
    static func start(metricsFile: String?, exporter: TelemetryExporter?) -> RunObservability {
        let registry = metricsFile.map { _ in PrometheusCollectorRegistry() }
        var session: TelemetryExporter.Session?
        if let exporter, exporter.isRequested() {
            do {
                session = try exporter.start()
            } catch {
                Terminal.err("warning: telemetry export is off for this run: \(error)")
            }
        }
        let factories = [registry.map { PrometheusTextFactory(registry: $0) as any MetricsFactory }, session?.metrics]
            .compactMap(\.self)
        if factories.count == 1 {
            MetricsSystem.bootstrap(factories[0])
        } else if factories.count > 1 {
            MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: factories))
        }
        if let tracer = session?.tracer { InstrumentationSystem.bootstrap(tracer) }
        return RunObservability(metricsFile: metricsFile, registry: registry, session: session)
    }

    /// The run's parent: the trace context in milepost's own environment (`TRACEPARENT`, set by a
    /// CI system or an orchestrator); the top level when there is none or no tracer.
    func parentContext() -> InstrumentationContext {
        var context = InstrumentationContext.topLevel
        InstrumentationSystem.instrument.extract(
            ProcessEnvironment.all(), into: &context, using: TraceEnvironment())
        return context
    }

    /// Writes `--metrics-file` and flushes the exporter, waiting at most
    /// `TelemetryExporter.flushBound`. Failures are warnings: they never change a run's outcome.
    func finish() async {
        if let metricsFile, let registry {
            do throws(FileCallError) {
                try FileWriting.write(metricsFile, registry.emitToBuffer())
            } catch {
                Terminal.err("warning: could not write the metrics file \(metricsFile): \(error.reason)")
            }
        }
        if let session { await Self.waiting(at: TelemetryExporter.flushBound, for: session.flush) }
    }

    /// Runs `work` and returns when it ends or after `bound`, whichever is first; `work` that is
    /// still going is abandoned (the process exits next).
    private static func waiting(at most: Duration, for work: @escaping @Sendable () async -> Void) async {
        await withCheckedContinuation { continuation in
            let first = FirstResume(continuation)
            Task {
                await work()
                first.resume()
            }
            Task {
                try? await Task.sleep(for: most)
                first.resume()
            }
        }
    }

    /// A continuation resumed by whichever of two tasks ends first.
    private final class FirstResume: Sendable {
        private let continuation: Mutex<CheckedContinuation<Void, Never>?>

        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Mutex(continuation) }

        func resume() { continuation.withLock { $0.take() }?.resume() }
    }
}
