import Glibc
import MilepostSystem

/// The default store: a directory with `state.json`, `journal.jsonl` and `lock`.
/// See docs/store.md for the file formats and guarantees.
public struct FileStore: MilepostStore {
    public let directory: String
    public var location: String { directory }

    /// A store in `directory` (created on the first write, never by a read).
    public init(directory: String) { self.directory = directory }

    var stateFile: StateFile { StateFile(path: directory + "/state.json", directory: directory) }
    var journalFile: JournalFile { JournalFile(path: directory + "/journal.jsonl", directory: directory) }
    var lockFile: LockFile { LockFile(path: directory + "/lock") }

    // MARK: - Reading (creates and modifies nothing)

    public func readState() async throws -> StoredState? {
        try readStateSynchronously()
    }

    /// `readState()` on the calling thread, without suspending: lets a process's pre-start path
    /// answer before any task or thread starts (see `Runner.upToDate(_:at:)`).
    public func readStateSynchronously() throws -> StoredState? {
        try stateFile.read()
    }

    public func readJournal() async throws -> [JournalRecord] {
        try journalFile.read()
    }

    public func lockHolder() async throws -> LockHolder? {
        do throws(FileCallError) {
            return try lockFile.currentHolder()
        } catch {
            throw StoreError(error)
        }
    }

    // MARK: - Locking

    /// Creates the directory if needed, takes the lock (see `LockFile`), records `holder` in the
    /// lock file, removes temp files left by crashed writers and cuts a torn journal line.
    public func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore {
        let descriptor: Int32
        do {
            try FileCalls.makeDirectories(directory, mode: 0o755)
            descriptor = try await lockFile.acquire(timeout: timeout, location: location)
        } catch let error as FileCallError {
            throw StoreError(error)
        }
        let locked = LockedFileStore(store: self, lockDescriptor: descriptor)
        do throws(FileCallError) {
            try LockFile.record(holder, in: descriptor, lockFile.path)
            try stateFile.removeStaleTempFiles()
            try journalFile.repairTail()
        } catch {
            await locked.release()
            throw StoreError(error)
        }
        return locked
    }
}
