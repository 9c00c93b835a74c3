// Compiled with the `OpenTelemetry` trait only (Package.swift): without it this module is empty and
// swift-otel is neither resolved nor linked.
#if OpenTelemetry
public import MilepostCLI
import Logging
import OTel
import ServiceLifecycle

extension TelemetryExporter {
    /// OpenTelemetry over OTLP/HTTP with protobuf (swift-otel), configured by the standard
    /// environment: `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` /
    /// `…_METRICS_ENDPOINT`) turns it on, `OTEL_SDK_DISABLED=true` off; `OTEL_SERVICE_NAME`
    /// (default `milepost`), `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`,
    /// `OTEL_EXPORTER_OTLP_PROTOCOL` (only `http/protobuf` and `http/json` are linked) and the rest
    /// of swift-otel's variables apply. Logs are not exported (they stay on stderr).
    public static let openTelemetry = TelemetryExporter(
        isRequested: { OTLPExportRequest.isPresent },
        start: OpenTelemetryBackends.start)
}

/// swift-otel's metrics and tracing backends, configured by the `OTEL_*` environment.
enum OpenTelemetryBackends {
    /// The configuration before the environment's overrides (swift-otel applies them).
    static var configuration: OTel.Configuration {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "milepost"
        configuration.logs.enabled = false
        configuration.diagnosticLogLevel = .warning
        return configuration
    }

    @Sendable static func start() throws -> TelemetryExporter.Session {
        let configuration = configuration
        let metrics = try OTel.makeMetricsBackend(configuration: configuration)
        let traces = try OTel.makeTracingBackend(configuration: configuration)
        let group = ServiceGroup(
            services: [metrics.service, traces.service], logger: Logger(label: "milepost.otel") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { try? await group.run() }
        return TelemetryExporter.Session(
            metrics: metrics.factory, tracer: traces.factory, logMetadata: OTel.makeLoggingMetadataProvider(),
            flush: {
                await group.triggerGracefulShutdown()
                await running.value
            })
    }
}
#endif
