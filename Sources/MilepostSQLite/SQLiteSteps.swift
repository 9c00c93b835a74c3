public import Milepost

/// The steps that come with the SQLite store: `sqlite`. The stock `milepost` binary installs them.
public enum SQLiteSteps: BuiltinStepPlugin {
    public static func register(in registry: inout StepRegistry) {
        SQLScriptStep<SQLiteScripts>.register(
            in: &registry,
            description: "Run SQL in the SQLite store's database, in the step's checkpoint transaction: "
                + "with: {sql: \"…\"} or {file: path}")
    }
}

/// The `sqlite` step's database: the step's writes and the record of its success commit together,
/// and a failure or a kill leaves neither.
enum SQLiteScripts: SQLScriptDatabase {
    static var dialect: ScriptDialect { .sqlite }
    static var stepName: String { "sqlite" }
    static var store: String { "a SQLite store (--store sqlite:PATH)" }
}
