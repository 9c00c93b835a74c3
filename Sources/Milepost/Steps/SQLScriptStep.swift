/// The built-in step that runs SQL, given inline or in a file relative to the manifest, on the
/// store's own database (`StepContext.scripts`), in the same transaction as its checkpoint: the one
/// step behind the per-database names `sql` (PostgreSQL), `mysql` (MariaDB/MySQL) and `sqlite`,
/// each registered by its store's target over its `SQLScriptDatabase`. A script is written in one
/// database's SQL, so each name runs only against its own store.
package enum SQLScriptStep<Database: SQLScriptDatabase> {
    package struct Parameters: Decodable, StoreBoundParameters, DefinitionFileParameters, ParameterWarnings {
        /// The SQL, inline or in a file.
        var script: SQLScript
        /// False to run outside the checkpoint's transaction (`CREATE INDEX CONCURRENTLY`): the step
        /// then behaves like any other step. Only where the database's step has the option
        /// (`SQLScriptDatabase.choosesTransaction`); true elsewhere.
        var transaction: Bool

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // `transaction` first: the schema's probe (which gives neither `sql` nor `file`) must see it.
            transaction = Database.choosesTransaction
                ? try container.decodeIfPresent(Bool.self, forKey: .transaction) ?? true : true
            script = try SQLScript(from: container, sql: .sql, file: .file)
        }

        enum CodingKeys: String, CodingKey { case sql, file, transaction }

        package func refusal(for store: any MilepostStore) -> String? {
            store.scriptDialect == Database.dialect
                ? nil : "the \(Database.stepName) step needs \(Database.store), and \(store.location) is not one"
        }

        package var runsInCheckpointTransaction: Bool { transaction }

        package var definitionFiles: [String] { script.definitionFiles }

        /// Transaction control in an inline script that runs in the checkpoint's transaction: it
        /// would end that transaction early (the step then fails at run time).
        package var warnings: [String] {
            guard transaction, let sql = script.sql else { return [] }
            return Database.transactionControl(in: sql).map {
                "the script has \($0), which would end the step's transaction before its checkpoint; remove it "
                    + "(the step runs in a transaction already)" + (Database.choosesTransaction ? " or set transaction: false" : "")
            }
        }
    }

    /// Registers the step under its database's name (`SQLScriptDatabase.stepName`).
    package static func register(in registry: inout StepRegistry, description: String) {
        registry.register(Database.stepName, parameters: Parameters.self, description: description, run)
    }

    @Sendable static func run(_ context: StepContext<Parameters>) async throws {
        guard let scripts = context.scripts, scripts.dialect == Database.dialect else {
            // The runner refuses the manifest before any step runs; reaching this is a programmer error.
            preconditionFailure(
                "the \(Database.stepName) step ran against a store whose scripts are \(String(describing: context.scripts?.dialect))")
        }
        let text = try context.sqlText(context.parameters.script)
        context.logger.debug("\(Database.stepName): \(text.count) characters, transaction: \(context.parameters.transaction)")
        if try await scripts.run(text) {
            context.logger.warning(
                "\(Database.stepName): the script committed the step's transaction (DDL commits implicitly): its work is committed, its checkpoint follows in a transaction of its own; a kill in between runs the script again")
        }
    }
}

/// A database a `SQLScriptStep` runs scripts on: its step's name and what that step may do.
package protocol SQLScriptDatabase: Sendable {
    /// The SQL its store runs.
    static var dialect: ScriptDialect { get }
    /// The step's name in manifests.
    static var stepName: String { get }
    /// The store the step needs, as its refusal names it ("a PostgreSQL store (--store postgres://…)").
    static var store: String { get }
    /// True when the step has `transaction: true | false`.
    static var choosesTransaction: Bool { get }
    /// The transaction-control statements an inline script visibly contains, for `validate`'s
    /// warning; none by default (no scan for the database).
    static func transactionControl(in sql: String) -> [String]
}

extension SQLScriptDatabase {
    package static var choosesTransaction: Bool { false }

    package static func transactionControl(in sql: String) -> [String] { [] }
}
