/// A store's state's head (`StoredStateHead`) read on the calling thread, without suspending and
/// without decoding every completed step: the CLI's pre-start fast path answers an up-to-date `run`
/// with it before any task or thread starts (`Runner.upToDate(_:at:manifest:)`). Offered as
/// `MilepostStore.stateHeadReader` by every store of Milepost: the file store (`state.json`), the
/// SQLite store (its one state row) and the PostgreSQL and MariaDB stores (one connection, one
/// query, no lock: the fleet's replicas start without the full path's work).
public struct StateHeadReader: Sendable {
    /// How long a server store's head read waits to connect to its server before it steps aside,
    /// whatever timeout the URL or the environment sets: the full path then tries with its own and
    /// says what is wrong, so an unreachable server costs a no-op this much more, not a second full
    /// wait. (A server that accepts the connection and then does not answer holds the full path
    /// as long.)
    package static let connectTimeoutSeconds = 2

    /// The head of the stored state; nil when nothing is stored or the quick scan cannot vouch for
    /// it (the full path then decodes the whole state and reports what is wrong).
    package let read: @Sendable () throws -> StoredStateHead?

    package init(_ read: @escaping @Sendable () throws -> StoredStateHead?) {
        self.read = read
    }
}
