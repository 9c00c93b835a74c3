import Milepost
#if canImport(Glibc)
import Glibc
#endif

extension FuzzTarget {
    /// `state.log` as a crash, a torn write or another store's file can leave it, beside a good
    /// `state.json`: read without the lock (the fast path's head, `readState`), then replayed under it.
    static let stateLog = FuzzTarget(
        name: "state-log",
        summary: "state.log bytes beside a state.json → FileStore without the lock (fast-path head, readState), then the "
            + "lock's replay; the head agrees with readState; a state read is one state.json may hold; the replay keeps it"
    ) { bytes in
        try await withStoreDirectory(["state.json": stateLogFixture.json, "state.log": bytes]) { directory in
            let store = FileStore(path: directory)
            let read = try await storeResult { try await store.readState() }
            // A head the fast path cannot read is a decline: it takes the full path.
            if case .success(let head) = try await storeResult({ try store.readStateHeadSynchronously() }) {
                try checkHead(head, against: read)
            }
            guard case .success(let before) = read, let before else { return }
            // The strict reader's rules hold for a state taken from the log: a format this version knows.
            do {
                _ = try StoredState.decode(json: before.json, location: "state.log")
            } catch {
                throw FuzzFinding("readState took a state from state.log that state.json may not hold: \(error)")
            }
            try checkRoundTrip(before)
            // The lock replays the log: the state it makes durable is the one readers saw without it.
            let holder = LockHolder(pid: getpid(), host: "fuzz", since: Timestamp(millisecondsSince1970: 0), run: "fuzz")
            guard case .success(let locked) = try await storeResult({ try await store.lock(timeout: .zero, holder: holder) }) else { return }
            await locked.release()
            let after = try await store.readState()
            try oracle(after == before, "the replay made \(String(describing: after)) durable, readers saw \(before)")
            // What the replay appended to the journal reads back.
            _ = try await store.readJournal()
        }
    }

    /// A state.json a run could have left.
    private static let stateLogFixture = StoredState(
        app: "fuzz", version: "1.0", updatedAt: Timestamp(millisecondsSince1970: 1_700_000_000_000))

    /// What a store's `body` returned or the `StoreError` it threw; any other error is thrown on.
    static func storeResult<T>(_ body: () async throws -> T) async throws -> Result<T, StoreError> {
        do {
            return .success(try await body())
        } catch let error as StoreError {
            return .failure(error)
        }
    }
}
