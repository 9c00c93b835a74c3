public import Milepost

/// The steps that come with the SQLite store: `sqlite`. The stock `milepost` binary installs them.
public enum SQLiteSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        registry.register(
            "sqlite", parameters: SQLiteStep.Parameters.self,
            description: "Run SQL in the SQLite store's database, in the step's checkpoint transaction: "
                + "with: {sql: \"…\"} or {file: path}",
            SQLiteStep.run)
    }
}
