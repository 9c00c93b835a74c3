public import MilepostCLI
import Foundation
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
        // getenv, not ProcessInfo's dictionary of the whole environment: the fast path asks this.
        isRequested: { OpenTelemetryEnvironment { getenv($0).map { String(cString: $0) } }.asksForExport },
        start: OpenTelemetryEnvironment.start)
}

/// What the `OTEL_*` environment asks of the stock binary, and starting swift-otel's backends.
enum OpenTelemetryEnvironment {
    case off
    case export

    /// - parameter variable: the value of an environment variable, nil when unset.
    init(_ variable: (String) -> String?) {
        let disabled = variable("OTEL_SDK_DISABLED")?.lowercased() == "true"
        let endpoints = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"]
        let endpoint = endpoints.contains { variable($0)?.isEmpty == false }
        self = !disabled && endpoint ? .export : .off
    }

    var asksForExport: Bool { self == .export }

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
