import MilepostSystem
import Synchronization
import SystemPackage

/// A file store whose lock this process holds through an open descriptor of its `lock` file.
/// Every file is reached through the directory opened when the lock was taken. Operations are
/// serialized; releasing waits for the one in progress.
///
/// A commit is one fdatasync of `state.log` (`StateLog`); `state.json` and `journal.jsonl` follow
/// without an fsync and are made durable when the lock is released (`StateLog.replay`).
final class LockedFileStore: LockedStore {
    private let stateFile: StateFile
    private let journalFile: JournalFile
    private let stateLog: StateLog
    private let lockFile: LockFile
    /// What this holder has open; nil once released.
    private let held: Mutex<Held?>

    /// The descriptor holding the `flock`, and `state.log` once this holder committed.
    private struct Held {
        var lock: FileDescriptor
        var log: FileDescriptor?
    }

    init(directory: StoreDirectory, lockDescriptor: FileDescriptor) {
        stateFile = StateFile(directory: directory)
        journalFile = JournalFile(directory: directory)
        stateLog = StateLog(directory: directory)
        lockFile = LockFile(directory: directory)
        held = Mutex(Held(lock: lockDescriptor))
    }

    /// Releases the lock if `release()` was never called, so the descriptor cannot leak.
    deinit {
        releaseNow()
    }

    func readState() async throws -> StoredState? {
        try whileHeld { _ in try stateFile.read() }
    }

    /// Refuses to replace a state file that exists but cannot be read: it is never overwritten.
    /// The commit point is the fdatasync of its line in `state.log`; the records reach the
    /// journal after `state.json` is replaced.
    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        try whileHeld { held in
            _ = try stateFile.read()
            let entry = StateLog.Entry(journalOffset: try journalFile.length(), records: records, state: state)
            try stateFile.write(state) { () throws(FileCallError) in
                held.log = try stateLog.append(entry, to: held.log)
                FailPoint.stateAfterLogSync.reach()
            }
            try journalFile.append(records, syncing: false)
            // The commit is durable in the log already: a replay that fails leaves the log to the
            // next one (after a later commit, or at release, or at the next lock).
            if let log = held.log, (try? stateLog.isLong(log)) == true {
                held.log = nil
                try? stateLog.replay(into: stateFile, journal: journalFile, closing: log)
            }
        }
    }

    func append(_ records: [JournalRecord]) async throws {
        try whileHeld { _ in try journalFile.append(records, syncing: records.contains(where: \.isDurable)) }
    }

    func release() async {
        releaseNow()
    }

    /// Runs `body` under the mutex, with file-call failures reported as `StoreError.io`.
    private func whileHeld<Result: Sendable>(_ body: (inout Held) throws -> Result) throws -> Result {
        try held.withLock { held in
            precondition(held != nil, "a LockedStore of \(stateFile.directory.path) was used after release()")
            do {
                return try body(&held!)
            } catch let error as FileCallError {
                throw StoreError(error)
            }
        }
    }

    /// Makes this holder's commits durable and removes `state.log` (`StateLog.replay`; when that
    /// fails the log stays, and the next holder replays it), clears the holder info and closes the
    /// descriptor, which drops the lock. Harmless when already released.
    private func releaseNow() {
        held.withLock { held in
            guard let current = held else { return }
            if current.log != nil {
                try? stateLog.replay(into: stateFile, journal: journalFile, closing: current.log)
            }
            LockFile.clear(current.lock, lockFile.path)
            FileCalls.close(current.lock)
            held = nil
        }
    }
}
