import MilepostSystem
import Synchronization

/// A file store whose lock this process holds through an open descriptor of its `lock` file.
/// Operations are serialized; releasing waits for the one in progress.
final class LockedFileStore: LockedStore {
    private let store: FileStore
    /// The descriptor holding the `flock`; nil once released.
    private let lockDescriptor: Mutex<Int32?>

    init(store: FileStore, lockDescriptor: Int32) {
        self.store = store
        self.lockDescriptor = Mutex(lockDescriptor)
    }

    /// Releases the lock if `release()` was never called, so the descriptor cannot leak.
    deinit {
        releaseNow()
    }

    func readState() async throws -> StoredState? {
        try whileHeld { try store.stateFile.read() }
    }

    /// Refuses to replace a state file that exists but cannot be read: it is never overwritten.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        try whileHeld {
            _ = try store.stateFile.read()
            try store.stateFile.write(state)
            try store.journalFile.append(records)
        }
    }

    func append(_ records: [JournalRecord]) async throws {
        try whileHeld { try store.journalFile.append(records) }
    }

    func release() async {
        releaseNow()
    }

    /// Runs `body` under the mutex, with file-call failures reported as `StoreError.io`.
    private func whileHeld<Result: Sendable>(_ body: () throws -> Result) throws -> Result {
        try lockDescriptor.withLock { descriptor in
            precondition(descriptor != nil, "a LockedStore of \(store.location) was used after release()")
            do {
                return try body()
            } catch let error as FileCallError {
                throw StoreError(error)
            }
        }
    }

    /// Clears the holder info and closes the descriptor, which drops the lock. Harmless when
    /// already released.
    private func releaseNow() {
        lockDescriptor.withLock { descriptor in
            guard let held = descriptor else { return }
            LockFile.clear(held, store.lockFile.path)
            FileCalls.close(held)
            descriptor = nil
        }
    }
}
