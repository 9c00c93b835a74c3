import Milepost
import MilepostCLI
import MilepostOTel
import MilepostPostgres

// The stock binary composes the command line with the PostgreSQL store and its `sql` step:
// `postgres://` and `postgresql://` URLs open a PostgresStore, anything else a directory. `run`
// exports traces and metrics over OTLP/HTTP when the OTEL_* environment asks for it.
await MilepostCLI.main(
    registry: .standard.installing(PostgresSteps.self),
    store: { spec -> any MilepostStore in
        PostgresStore.accepts(spec) ? PostgresStore(url: spec) : try MilepostCLI.fileStore(spec)
    },
    telemetry: .openTelemetry)
