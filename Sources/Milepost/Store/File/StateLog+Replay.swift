import MilepostSystem
import SystemPackage

extension StateLog {
    /// Makes the log's commits durable in `state.json` and `journal.jsonl`, then removes the log:
    /// the journal gets every commit's records it lacks (`JournalFile.restore`), `state.json`
    /// the state of the last complete line, both are fsynced, the log removed and the directory
    /// fsynced. Run under the lock: when it is taken (a crash left the log) and when it is released
    /// (the holder's own commits). Does nothing when there is no log.
    /// - parameter descriptor: the log as the holder's commits opened it; nil when it opened none.
    ///   Closed however the replay ends: when it fails, the file stays for the next replay.
    func replay(into stateFile: StateFile, journal: JournalFile, closing descriptor: FileDescriptor?) throws {
        defer { if let descriptor { FileCalls.close(descriptor) } }
        do throws(FileCallError) {
            if descriptor == nil, try !exists() { return }
        } catch {
            throw StoreError(error)
        }
        let entries = try entries()
        do throws(FileCallError) {
            if let last = entries.last {
                try journal.restore(entries.map { ($0.journalOffset, $0.records) })
                // A state.json that does not decode is replaced: the log explains it.
                if (try? stateFile.read()) != last.state { try stateFile.write(last.state) }
                try stateFile.sync()
            }
            try journal.sync()
            try remove()
            try directory.sync()
        } catch {
            throw StoreError(error)
        }
    }
}
