public import Milepost

/// The steps that come with the MariaDB/MySQL store: `mysql` (a step of its own, not `sql`, which
/// is the PostgreSQL store's: a script is written in one database's dialect). The stock `milepost`
/// binary installs them.
public enum MariaDBSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        registry.register(
            "mysql", parameters: MySQLStep.Parameters.self,
            description: "Run SQL in the MariaDB/MySQL store's database, in the step's checkpoint transaction (DDL commits "
                + "it implicitly): with: {sql: \"…\"} or {file: path}",
            MySQLStep.run)
    }
}
