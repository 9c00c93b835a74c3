import Milepost
import MilepostCLI
import MilepostPostgres

// The stock binary composes the command line with the PostgreSQL store and its `sql` step:
// `postgres://` and `postgresql://` URLs open a PostgresStore, anything else a directory.
await MilepostCLI.main(registry: .standard.installing(PostgresSteps.self)) { spec -> any MilepostStore in
    PostgresStore.accepts(spec) ? PostgresStore(url: spec) : try MilepostCLI.fileStore(spec)
}
