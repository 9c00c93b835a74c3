/// The SQL a database store runs: what a step that runs a script on the store's own database
/// (`sql`, `mysql`, `sqlite`) checks before anything runs (`StoreBoundParameters.refusal(for:)`).
public enum ScriptDialect: String, Sendable {
    case postgresql
    case mariadb
    case sqlite
}
