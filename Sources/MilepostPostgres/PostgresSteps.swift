public import Milepost

/// The steps that come with the PostgreSQL store: `sql`. The stock `milepost` binary installs them.
public enum PostgresSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        registry.register(
            "sql", parameters: SQLStep.Parameters.self,
            description: "Run SQL in the PostgreSQL store's database, in the step's checkpoint transaction: "
                + "with: {sql: \"…\"} or {file: path}, optional transaction: false",
            SQLStep.run)
    }
}
