// CONTRACT STUB — implemented by the file-store work package.
/// The default store: a directory with `state.json`, `journal.jsonl` and `lock`.
public struct FileStore: MilepostStore {
    public let directory: String
    public var location: String { directory }

    /// A store in `directory` (created on the first write, never by a read).
    public init(directory: String) { self.directory = directory }

    public func readState() async throws -> StoredState? { fatalError("unimplemented") }
    public func readJournal() async throws -> [JournalRecord] { fatalError("unimplemented") }
    public func lockHolder() async throws -> LockHolder? { fatalError("unimplemented") }
    public func lock(timeout: Duration, holder: LockHolder) async throws -> any LockedStore { fatalError("unimplemented") }
}
