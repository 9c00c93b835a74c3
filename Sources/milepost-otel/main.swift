import MilepostOTel
import MilepostStock

// `milepost` with the OpenTelemetry exporter linked (swift-otel, SwiftNIO, BoringSSL). `milepost`
// replaces itself with this binary, installed beside it, when the OTEL_* environment asks for
// export (`ExporterHandoff`); `run` then exports its traces and metrics over OTLP/HTTP.
StockCommandLine.start(telemetry: .openTelemetry)
