import FoundationEssentials
import MilepostSystem
import SystemPackage

/// The `lock` file. The lock is a `flock(2)` on it, which belongs to the open file description
/// and dies with the process, so a crashed holder never blocks anyone. The file is never renamed
/// or deleted; its content names the holder, for messages only. The SQLite store locks the same
/// way, on a file beside its database (`SidecarLock`).
struct LockFile {
    let directory: StoreDirectory
    /// The file's name in `directory`: `lock` for the file store.
    var name = "lock"
    var path: String { directory.path(of: name) }

    /// The holder named in the file while someone holds the lock; nil when there is no lock file,
    /// nobody holds the lock, or the content is unreadable. Probes with a shared non-blocking
    /// lock on a read-only descriptor, released at once, so it modifies nothing.
    func currentHolder() throws(FileCallError) -> LockHolder? {
        guard let descriptor = try directory.openIfExists(name, .readOnly) else { return nil }
        defer { FileCalls.close(descriptor) }
        if try FileCalls.tryLock(descriptor, .shared, path) {
            FileCalls.unlock(descriptor)
            return nil
        }
        return Self.holder(in: descriptor, path)
    }

    /// Opens the file (creating it) and takes the exclusive lock, trying again (`LockPolling`)
    /// until `timeout` has passed.
    /// - returns: The descriptor holding the lock.
    /// - throws: `StoreError.lockTimeout` naming `location` and the holder when the wait runs out;
    ///   `CancellationError` when the task is cancelled while waiting.
    func acquire(timeout: Duration, location: String) async throws -> FileDescriptor {
        let descriptor = try directory.open(name, .readWrite, options: .create)
        do {
            let path = path
            guard try await LockPolling.poll(timeout: timeout, { try FileCalls.tryLock(descriptor, .exclusive, path) ? () : nil })
                != nil
            else {
                throw StoreError.lockTimeout(location: location, waited: timeout, holder: Self.holder(in: descriptor, path))
            }
            return descriptor
        } catch {
            FileCalls.close(descriptor)
            throw error
        }
    }

    /// Replaces the file's content with `holder` as one line of JSON.
    static func record(_ holder: LockHolder, in descriptor: FileDescriptor, _ path: String) throws(FileCallError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings and numbers into JSON cannot fail.
        let bytes = Array(try! encoder.encode(holder)) + [UInt8(ascii: "\n")]
        try FileCalls.truncate(descriptor, to: 0, path)
        try FileCalls.write(descriptor, bytes, at: 0, path)
    }

    /// Empties the file (it then names nobody; best effort, the content is only for messages),
    /// drops the lock and closes `descriptor`. The lock is dropped explicitly (`LOCK_UN`) before
    /// the close: a child that another thread of this process is spawning holds a copy of the
    /// descriptor until it execs (close-on-exec), and a close alone would leave the lock held until
    /// then — a `lock(timeout: .zero)` right after the release found it "held by another process".
    static func release(_ descriptor: FileDescriptor, _ path: String) {
        try? FileCalls.truncate(descriptor, to: 0, path)
        FileCalls.unlock(descriptor)
        FileCalls.close(descriptor)
    }

    /// The holder named in the file; nil when the content is not a holder (for instance empty,
    /// between a holder taking the lock and recording itself).
    private static func holder(in descriptor: FileDescriptor, _ path: String) -> LockHolder? {
        guard let bytes = try? FileCalls.read(descriptor, count: 4096, at: 0, path) else { return nil }
        return try? JSONDecoder().decode(LockHolder.self, from: Data(bytes))
    }
}
