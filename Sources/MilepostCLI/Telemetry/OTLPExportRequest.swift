import MilepostSystem

/// Whether the standard OpenTelemetry environment asks for OTLP export: one of
/// `OTEL_EXPORTER_OTLP_ENDPOINT`, `…_TRACES_ENDPOINT`, `…_METRICS_ENDPOINT` is set and not empty,
/// and `OTEL_SDK_DISABLED` is not `true`.
public enum OTLPExportRequest {
    /// This process's environment, one variable at a time (the pre-start fast path asks it: no
    /// dictionary of the whole environment is built).
    public static var isPresent: Bool {
        isPresent(ProcessEnvironment.value)
    }

    /// - parameter variable: the value of an environment variable, nil when unset.
    public static func isPresent(_ variable: (String) -> String?) -> Bool {
        let disabled = variable("OTEL_SDK_DISABLED")?.lowercased() == "true"
        let endpoints = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"]
        return !disabled && endpoints.contains { variable($0)?.isEmpty == false }
    }
}
