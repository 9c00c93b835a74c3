public import MilepostCLI
public import Milepost
import MilepostMariaDB
import MilepostPostgres
import MilepostSQLite

/// The stock command line, shared by `milepost` and `milepost-otel`: the standard steps with the
/// PostgreSQL `sql` step, the SQLite `sqlite` step and the MariaDB `mysql` step, and a store opener
/// for which `postgres://` and `postgresql://` URLs open a `PostgresStore`, `mysql://` and
/// `mariadb://` a `MariaDBStore`, `sqlite:PATH` a `SQLiteStore` and a path a directory (any other URL scheme is refused: `storeSchemes`).
public enum StockCommandLine {
    /// The stock steps: the standard ones, `sql`, `sqlite` and `mysql`.
    public static var registry: StepRegistry {
        .standard.installing(PostgresSteps.self, SQLiteSteps.self, MariaDBSteps.self)
    }

    /// Runs the process's command line and exits, once the threads it needs were granted
    /// (`MilepostCLI.start`); `telemetry` exports `run`'s traces and metrics.
    public static func start(telemetry: TelemetryExporter?) -> Never {
        MilepostCLI.start(
            registry: registry,
            store: { spec -> any MilepostStore in
                if PostgresStore.accepts(spec) { return PostgresStore(url: spec) }
                if MariaDBStore.accepts(spec) { return MariaDBStore(url: spec) }
                if SQLiteStore.accepts(spec) {
                    guard let store = SQLiteStore(spec: spec) else {
                        throw StoreError.io(
                            location: "sqlite:", reason: .invalidURL("names no database file; write sqlite:PATH or sqlite:///ABSOLUTE-PATH"))
                    }
                    return store
                }
                return try MilepostCLI.fileStore(spec)
            },
            storeSchemes: PostgresStore.schemes + MariaDBStore.schemes + [SQLiteStore.scheme],
            telemetry: telemetry)
    }
}
