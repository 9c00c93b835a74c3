public import Milepost

/// The steps that come with the PostgreSQL store: `sql`. The stock `milepost` binary installs them.
public enum PostgresSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        SQLScriptStep<PostgresScripts>.register(
            in: &registry,
            description: "Run SQL in the PostgreSQL store's database, in the step's checkpoint transaction: "
                + "with: {sql: \"…\"} or {file: path}, optional transaction: false")
    }
}

/// The `sql` step's database: the only script step with `transaction: false`, for statements
/// PostgreSQL refuses in a transaction (`CREATE INDEX CONCURRENTLY`).
enum PostgresScripts: SQLScriptDatabase {
    static var dialect: ScriptDialect { .postgresql }
    static var stepName: String { "sql" }
    static var store: String { "a PostgreSQL store (--store postgres://…)" }
    static var choosesTransaction: Bool { true }

    static func transactionControl(in sql: String) -> [String] {
        SQLTransactionControl.statements(in: sql)
    }
}
