/// What a step may do with the store the run holds the lock of: run a script on its database, in
/// the step's checkpoint transaction when the step asks for one (`StoreBoundParameters`). A step
/// gets this (`StepContext.scripts`), never the locked store: no step can commit a state, append a
/// journal record or release the runner's lock. Offered by the database stores' locks
/// (`LockedStore.scripts`); nil for the file store.
public struct StoreScripts: Sendable {
    /// The SQL the database runs.
    public let dialect: ScriptDialect
    private let execute: @Sendable (String) async throws -> Bool

    package init(dialect: ScriptDialect, execute: @escaping @Sendable (String) async throws -> Bool) {
        self.dialect = dialect
        self.execute = execute
    }

    /// Runs `script` on the store's connection, in the step's transaction when one is open.
    /// - returns: True when the script ended the step's transaction itself and the store went on
    ///   without it (MariaDB commits DDL implicitly: the work before is committed, not with the
    ///   checkpoint); the PostgreSQL and SQLite stores refuse such a script instead.
    /// - throws: the database's error, or why the script's transaction control was refused.
    @discardableResult
    public func run(_ script: String) async throws -> Bool {
        try await execute(script)
    }
}
