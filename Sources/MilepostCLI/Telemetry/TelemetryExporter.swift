public import CoreMetrics
public import Logging
public import Tracing

/// A traces-and-metrics backend a binary adds to `milepost run`, given to `MilepostCLI.main`. The
/// stock `milepost` passes OpenTelemetry's (`MilepostOTel`); an application embedding the command
/// line links an exporter only if it passes one.
///
/// `milepost run` starts it only when `isRequested` says so, bootstraps swift-metrics and
/// swift-distributed-tracing with what it gives (together with `--metrics-file`), and calls
/// `flush` before exiting, waiting for it at most `TelemetryExporter.flushBound`.
public struct TelemetryExporter: Sendable {
    /// What a started exporter gives the run.
    public struct Session: Sendable {
        /// Receives the run's metrics; nil when this exporter sends none.
        public var metrics: (any MetricsFactory)?
        /// Receives the run's spans, and propagates their context (`TRACEPARENT`); nil when this exporter sends none.
        public var tracer: (any Tracer)?
        /// Adds the current trace and span ids to log records (`--log-format json`).
        public var logMetadata: Logger.MetadataProvider?
        /// Sends what is buffered and stops.
        public var flush: @Sendable () async -> Void

        public init(
            metrics: (any MetricsFactory)?, tracer: (any Tracer)?, logMetadata: Logger.MetadataProvider?,
            flush: @escaping @Sendable () async -> Void
        ) {
            self.metrics = metrics
            self.tracer = tracer
            self.logMetadata = logMetadata
            self.flush = flush
        }
    }

    /// Whether the process's configuration asks for export. Cheap: the pre-start fast path asks it
    /// and, when true, leaves an up-to-date run to the full path so that the run is exported.
    public var isRequested: @Sendable () -> Bool
    /// Starts exporting; a thrown error is reported as a warning and the run goes on without it.
    public var start: @Sendable () throws -> Session

    public init(isRequested: @escaping @Sendable () -> Bool, start: @escaping @Sendable () throws -> Session) {
        self.isRequested = isRequested
        self.start = start
    }

    /// How long `milepost run` waits for `flush` before it exits anyway: an unreachable collector
    /// delays a run by at most this, and never changes its exit code.
    public static let flushBound: Duration = .seconds(2)
}
