/// The two locks of the PostgreSQL store (docs/postgres.md, "Locking").
enum LockKind: String, Sendable {
    /// A session advisory lock on a connection of its own: released by the server the moment that
    /// connection ends. Needs a direct connection (or a session-mode pool).
    case session
    /// A row with an expiry, renewed by a heartbeat: works through any pooler, lapses a bounded
    /// time after its holder stops renewing.
    case lease

    /// The lock asked for, else the lease behind a connection pooler and the session lock otherwise.
    static func choose(asked: LockKind?, pooled: Bool) -> LockKind {
        asked ?? (pooled ? .lease : .session)
    }
}
