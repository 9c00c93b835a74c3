import MilepostSystem
import Synchronization
import SystemPackage

/// A file store whose lock this process holds through an open descriptor of its `lock` file.
/// Every file is reached through the directory opened when the lock was taken. Operations are
/// serialized; releasing waits for the one in progress.
///
/// A commit is one fdatasync of `state.log` (`StateLog`), none for a `.process` commit;
/// `state.json` and `journal.jsonl` follow without an fsync and are made durable when the lock is
/// released (`StateLog.replay`).
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
        var log: StateLog.Open?
        /// A commit's `state.json` or journal write failed after its commit point, and the replay
        /// that followed failed too: `state.log` holds commits the two files lack (`catchUp`).
        var behind = false
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

    /// `state.json`; the last commit in `state.log` while the two files are behind it.
    func readState() async throws -> StoredState? {
        try whileHeld { held in
            if held.behind, let last = try stateLog.entries().last { return last.state }
            return try stateFile.read()
        }
    }

    func commit(_ state: StoredState, journal records: [JournalRecord]) async throws {
        try await commit(state, journal: records, durability: .disk)
    }

    /// Refuses to replace a state file that exists but cannot be read: it is never overwritten.
    /// The commit point is its line in `state.log`, fdatasynced for a `.disk` commit; the records
    /// reach the journal after `state.json` is replaced. A failure after the commit point is not
    /// the commit's: the commit stands (every reader reads the log first), and the log is replayed
    /// into the two files at once (`catchUp`).
    func commit(_ state: StoredState, journal records: [JournalRecord], durability: CommitDurability) async throws {
        try whileHeld { held in
            _ = try stateFile.read()
            let entry = StateLog.Entry(journalOffset: try journalFile.length(), records: records, state: state)
            if held.behind {
                held.log = try stateLog.append(entry, to: held.log, durability: durability)
                catchUp(&held)
                return
            }
            let prepared = try stateFile.prepare(state)
            FailPoint.stateBeforeLog.reach()
            do throws(FileCallError) {
                held.log = try stateLog.append(entry, to: held.log, durability: durability)
            } catch {
                stateFile.discard(prepared)
                throw error
            }
            FailPoint.stateAfterLogSync.reach()
            do throws(FileCallError) {
                try stateFile.replace(with: prepared)
                try journalFile.append(records, syncing: false)
            } catch {
                catchUp(&held)
                return
            }
            // The commit is durable in the log already: a replay that fails leaves the log to the
            // next one (after a later commit, or at release, or at the next lock).
            if let log = held.log, (try? stateLog.isLong(log.descriptor)) == true {
                held.log = nil
                try? stateLog.replay(into: stateFile, journal: journalFile, closing: log.descriptor)
            }
        }
    }

    /// Appends to the journal, once it holds every commit's records (`catchUp`).
    /// - throws: when the journal is behind the log and the replay fails again: the records would
    ///   land before commits of the log that the journal lacks.
    func append(_ records: [JournalRecord]) async throws {
        try whileHeld { held in
            if held.behind {
                catchUp(&held)
                if held.behind { throw StoreError.io(location: journalFile.path, reason: "the journal is behind state.log and cannot be brought up to date") }
            }
            try journalFile.append(records, syncing: records.contains(where: \.isDurable))
        }
    }

    /// Replays `state.log` into `state.json` and the journal now, so that both hold every commit
    /// again; when that fails too the store stays behind (`Held.behind`), the log kept for the
    /// next try: the next commit, the release, or the next holder's lock.
    private func catchUp(_ held: inout Held) {
        let log = held.log
        held.log = nil
        held.behind = (try? stateLog.replay(into: stateFile, journal: journalFile, closing: log?.descriptor)) == nil
    }

    func release() async {
        releaseNow()
    }

    /// Runs `body` under the mutex, with file-call failures reported as `StoreError.io`.
    private func whileHeld<Result: Sendable>(_ body: (inout Held) throws -> Result) throws -> Result {
        try held.withLock { held in
            if held == nil { usedAfterRelease(stateFile.directory.path) }
            do {
                return try body(&held!)
            } catch let error as FileCallError {
                throw StoreError(error)
            }
        }
    }

    /// Makes this holder's commits durable and removes `state.log` (`StateLog.replay`; when that
    /// fails the log stays, and the next holder replays it), then drops the lock (`LockFile.release`).
    /// Harmless when already released.
    private func releaseNow() {
        held.withLock { held in
            guard let current = held else { return }
            if current.log != nil || current.behind {
                try? stateLog.replay(into: stateFile, journal: journalFile, closing: current.log?.descriptor)
            }
            LockFile.release(current.lock, lockFile.path)
            held = nil
        }
    }
}
