import Milepost
import MilepostCLI
import MilepostPostgres

var registry = StepRegistry.standard
registry.install(PostgresSteps.self)
await MilepostCLI.main(registry: registry)
