import MilepostStock

// The stock binary: the standard steps, the PostgreSQL store and `sql` step, no exporter linked.
// When the OTEL_* environment asks for export, it becomes `milepost-otel` (see ExporterHandoff).
ExporterHandoff.execIfRequested()
StockCommandLine.start(telemetry: nil)
