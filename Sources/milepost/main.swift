import Milepost
import MilepostCLI
import MilepostPostgres

await MilepostCLI.main(registry: .standard.installing(PostgresSteps.self))
