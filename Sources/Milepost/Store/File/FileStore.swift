import MilepostSystem
public import SystemPackage

/// The default store: a directory with `state.json`, `journal.jsonl` and `lock` (and, while a run
/// holds the lock or after a crash, `state.log`).
/// See docs/store.md for the file formats and guarantees.
public struct FileStore: MilepostStore {
    /// The store's directory.
    public let path: FilePath
    /// The directory's text (`PathText`): what the file calls open.
    private let directory: String
    /// The directory for messages: a byte that is not UTF-8 shows as `\xFF`.
    public var location: String { PathText.readable(directory) }
    public var kind: String { "file" }
    /// `file:` and the directory's canonical path (`CanonicalPath`: links, `.` and `..` resolved).
    public var identity: String { "file:" + CanonicalPath.of(directory) }

    /// A store in the directory `path`, whatever its bytes (created on the first write, never by a read).
    public init(path: FilePath) {
        self.path = path
        self.directory = PathText.string(path)
    }

    /// A store in the directory `path`, a Unicode path (created on the first write, never by a read).
    public init(path: String) { self.init(path: FilePath(path)) }

    /// The file store in `directory`: the name this initializer had before 0.3, kept so that
    /// applications written against it still build.
    @available(*, deprecated, renamed: "init(path:)")
    public init(directory: String) { self.init(path: directory) }

    /// The directory, opened for reading; nil when it does not exist (nothing is stored yet).
    private func openedDirectory() throws -> StoreDirectory? {
        do throws(FileCallError) {
            return try StoreDirectory.openIfExists(directory)
        } catch {
            throw StoreError(error)
        }
    }

    // MARK: - Reading (creates and modifies nothing)

    /// The last commit in `state.log` when there is one (a run holds the lock, or a crash left it),
    /// else `state.json`. The log's last complete line is read first; only when it is not a commit
    /// (a power cut left it half-written) is the whole log read (`StateLog.entries()`).
    public func readState() async throws -> StoredState? {
        guard let opened = try openedDirectory() else { return nil }
        let log = StateLog(directory: opened)
        if case .line(let line) = try end(of: log), let last = try log.decode(line) { return last.state }
        if let last = try log.entries().last { return last.state }
        return try StateFile(directory: opened).read()
    }

    /// `readStateHeadSynchronously()`.
    public var stateHeadReader: StateHeadReader? { StateHeadReader(readStateHeadSynchronously) }

    /// The head of the state `readState()` returns (`stateHeadReader`), by the quick scans: of
    /// `state.json`, or of the last complete line of `state.log` when there is one (a run holds
    /// the lock, or a crash left it). Nil, for the full path, when the scan cannot vouch for it or
    /// the log holds no complete line.
    package func readStateHeadSynchronously() throws -> StoredStateHead? {
        guard let opened = try openedDirectory() else { return nil }
        switch try end(of: StateLog(directory: opened)) {
        case .absent: return try StateFile(directory: opened).readHead()
        case .empty: return nil
        case .line(let line): return StoredStateHead(logLine: line)
        }
    }

    /// `log.end()`, a failure reported as the state's.
    private func end(of log: StateLog) throws -> StateLog.End {
        do throws(FileCallError) {
            return try log.end()
        } catch {
            throw StoreError.unreadableState(error)
        }
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
    /// lock file, removes temp files left by crashed writers, cuts a torn journal line and replays
    /// a `state.log` a crash left (`StateLog.replay`) before anything reads the state.
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
        do {
            do throws(FileCallError) {
                try LockFile.record(holder, in: descriptor, LockFile(directory: opened).path)
                try StateFile(directory: opened).removeStaleTempFiles()
                try JournalFile(directory: opened).repairTail()
            } catch {
                throw StoreError(error)
            }
            try StateLog(directory: opened).replay(
                into: StateFile(directory: opened), journal: JournalFile(directory: opened), closing: nil)
        } catch {
            await locked.release()
            throw error
        }
        return locked
    }
}

