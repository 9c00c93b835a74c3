public import MilepostCLI
import Milepost
import MilepostPostgres

/// The stock command line, shared by `milepost` and `milepost-otel`: the standard steps with the
/// PostgreSQL `sql` step, and a store opener for which `postgres://` and `postgresql://` URLs open a
/// `PostgresStore` and a path a directory (any other URL scheme is refused: `storeSchemes`).
public enum StockCommandLine {
    /// Runs the process's command line and exits, once the threads it needs were granted
    /// (`MilepostCLI.start`); `telemetry` exports `run`'s traces and metrics.
    public static func start(telemetry: TelemetryExporter?) -> Never {
        MilepostCLI.start(
            registry: .standard.installing(PostgresSteps.self),
            store: { spec -> any MilepostStore in
                PostgresStore.accepts(spec) ? PostgresStore(url: spec) : try MilepostCLI.fileStore(spec)
            },
            storeSchemes: PostgresStore.schemes,
            telemetry: telemetry)
    }
}
