import MilepostSystem
import Synchronization
import SystemPackage

/// A file store whose lock this process holds through an open descriptor of its `lock` file.
/// Every file is reached through the directory opened when the lock was taken. Operations are
/// serialized; releasing waits for the one in progress.
final class LockedFileStore: LockedStore {
    private let stateFile: StateFile
    private let journalFile: JournalFile
    private let lockFile: LockFile
    /// The descriptor holding the `flock`; nil once released.
    private let lockDescriptor: Mutex<FileDescriptor?>

    init(directory: StoreDirectory, lockDescriptor: FileDescriptor) {
        stateFile = StateFile(directory: directory)
        journalFile = JournalFile(directory: directory)
        lockFile = LockFile(directory: directory)
        self.lockDescriptor = Mutex(lockDescriptor)
    }

    /// Releases the lock if `release()` was never called, so the descriptor cannot leak.
    deinit {
        releaseNow()
    }

    func readState() async throws -> StoredState? {
        try whileHeld { try stateFile.read() }
    }

    /// Refuses to replace a state file that exists but cannot be read: it is never overwritten.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        try whileHeld {
            _ = try stateFile.read()
            try stateFile.write(state)
            try journalFile.append(records)
        }
    }

    func append(_ records: [JournalRecord]) async throws {
        try whileHeld { try journalFile.append(records) }
    }

    func release() async {
        releaseNow()
    }

    /// Runs `body` under the mutex, with file-call failures reported as `StoreError.io`.
    private func whileHeld<Result: Sendable>(_ body: () throws -> Result) throws -> Result {
        try lockDescriptor.withLock { descriptor in
            precondition(descriptor != nil, "a LockedStore of \(stateFile.directory.path) was used after release()")
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
            LockFile.clear(held, lockFile.path)
            FileCalls.close(held)
            descriptor = nil
        }
    }
}
