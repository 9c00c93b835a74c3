/// A store's state's head (`StoredStateHead`) read on the calling thread, without suspending and
/// without decoding every completed step: the CLI's pre-start fast path answers an up-to-date `run`
/// with it before any task or thread starts (`Runner.upToDate(_:at:manifest:)`). Offered as
/// `MilepostStore.stateHeadReader` by the file store (`state.json`) and the SQLite store (its one
/// state row); a server store needs a connection and a round trip, and takes the full path.
public struct StateHeadReader: Sendable {
    /// The head of the stored state; nil when nothing is stored or the quick scan cannot vouch for
    /// it (the full path then decodes the whole state and reports what is wrong).
    package let read: @Sendable () throws -> StoredStateHead?

    package init(_ read: @escaping @Sendable () throws -> StoredStateHead?) {
        self.read = read
    }
}
