public import Milepost

/// The steps that come with the MariaDB/MySQL store: `mysql` (a step of its own, not `sql`, which
/// is the PostgreSQL store's: a script is written in one database's dialect). The stock `milepost`
/// binary installs them.
public enum MariaDBSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        SQLScriptStep<MariaDBScripts>.register(
            in: &registry,
            description: "Run SQL in the MariaDB/MySQL store's database, in the step's checkpoint transaction (DDL commits "
                + "it implicitly): with: {sql: \"…\"} or {file: path}")
    }
}

/// The `mysql` step's database. DDL (`CREATE`, `ALTER`, `DROP`, …) commits the step's transaction
/// implicitly, so a script with DDL is committed on its own and runs again after a kill before its
/// checkpoint: write it to be idempotent (`IF NOT EXISTS`, `IF EXISTS`). See docs/store.md.
enum MariaDBScripts: SQLScriptDatabase {
    static var dialect: ScriptDialect { .mariadb }
    static var stepName: String { "mysql" }
    static var store: String { "a MariaDB/MySQL store (--store mysql://…)" }
}
