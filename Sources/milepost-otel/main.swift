import MilepostStock

#if OpenTelemetry
import MilepostOTel

// `milepost` with the OpenTelemetry exporter linked (swift-otel, SwiftNIO, BoringSSL). `milepost`
// replaces itself with this binary, installed beside it, when the OTEL_* environment asks for
// export (`ExporterHandoff`); `run` then exports its traces and metrics over OTLP/HTTP.
StockCommandLine.start(telemetry: .openTelemetry)
#else
import Foundation

// Built without the `OpenTelemetry` trait (`swift build` without `--traits OpenTelemetry`): the
// exporter is not linked, so this runs as `milepost` does when `milepost-otel` is missing.
FileHandle.standardError.write(Data(
    "milepost-otel: built without the OpenTelemetry trait (swift build --traits OpenTelemetry); running without export\n".utf8))
StockCommandLine.start(telemetry: nil)
#endif
