/// A store whose state's head (`StoredStateHead`) can be read on the calling thread, without
/// suspending and without decoding every completed step: the CLI's pre-start fast path answers
/// an up-to-date `run` with it before any task or thread starts (`Runner.upToDate(_:at:manifest:)`).
/// The file store reads `state.json`, the SQLite store its one state row; a server store needs a
/// connection and a round trip, and takes the full path.
package protocol StateHeadReading: MilepostStore {
    /// The head of the stored state; nil when nothing is stored or the quick scan cannot vouch for
    /// it (the full path then decodes the whole state and reports what is wrong).
    func readStateHeadSynchronously() throws -> StoredStateHead?
}
