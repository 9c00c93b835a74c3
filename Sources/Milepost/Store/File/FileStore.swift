import MilepostSystem
public import SystemPackage

/// The default store: a directory with `state.json`, `journal.jsonl` and `lock`.
/// See docs/store.md for the file formats and guarantees.
public struct FileStore: MilepostStore {
    /// The store's directory.
    public let path: FilePath
    /// The directory's text (`PathText`): what the file calls open.
    private let directory: String
    /// The directory for messages: a byte that is not UTF-8 shows as `\xFF`.
    public var location: String { PathText.readable(directory) }
    public var kind: String { "file" }

    /// A store in the directory `path`, whatever its bytes (created on the first write, never by a read).
    public init(path: FilePath) {
        self.path = path
        self.directory = PathText.string(path)
    }

    /// A store in `directory`, a Unicode path (created on the first write, never by a read).
    public init(directory: String) { self.init(path: FilePath(directory)) }

    /// The directory, opened for reading; nil when it does not exist (nothing is stored yet).
    private func openedDirectory() throws -> StoreDirectory? {
        do throws(FileCallError) {
            return try StoreDirectory.openIfExists(directory)
        } catch {
            throw StoreError(error)
        }
    }

    // MARK: - Reading (creates and modifies nothing)

    public func readState() async throws -> StoredState? {
        try openedDirectory().flatMap { try StateFile(directory: $0).read() }
    }

    /// `state.json`'s head (`StateHeadReading`).
    package func readStateHeadSynchronously() throws -> StoredStateHead? {
        try openedDirectory().flatMap { try StateFile(directory: $0).readHead() }
    }

    public func readJournal() async throws -> [JournalRecord] {
        try openedDirectory().map { try JournalFile(directory: $0).read() } ?? []
    }

    /// Reads the file backwards only as far as the last `count` records go.
    public func readJournal(last count: Int) async throws -> [JournalRecord] {
        try openedDirectory().map { try JournalFile(directory: $0).read(last: count) } ?? []
    }

    public func lockHolder() async throws -> LockHolder? {
        guard let opened = try openedDirectory() else { return nil }
        do throws(FileCallError) {
            return try LockFile(directory: opened).currentHolder()
        } catch {
            throw StoreError(error)
        }
    }

    // MARK: - Locking

    /// Creates the directory if needed, takes the lock (see `LockFile`), records `holder` in the
    /// lock file, removes temp files left by crashed writers and cuts a torn journal line.
    public func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore {
        let opened: StoreDirectory
        let descriptor: FileDescriptor
        do {
            try FileCalls.makeDirectories(directory, permissions: [.ownerReadWriteExecute, .groupReadExecute, .otherReadExecute])
            opened = try StoreDirectory.open(directory)
            descriptor = try await LockFile(directory: opened).acquire(timeout: timeout, location: location)
        } catch let error as FileCallError {
            throw StoreError(error)
        }
        let locked = LockedFileStore(directory: opened, lockDescriptor: descriptor)
        do throws(FileCallError) {
            try LockFile.record(holder, in: descriptor, LockFile(directory: opened).path)
            try StateFile(directory: opened).removeStaleTempFiles()
            try JournalFile(directory: opened).repairTail()
        } catch {
            await locked.release()
            throw StoreError(error)
        }
        return locked
    }
}

extension FileStore: StateHeadReading {}
