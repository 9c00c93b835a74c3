import Logging
import MilepostSystem

/// The stores a command works on — the fleet store and, for `scope: host` steps, this host's — and
/// how it takes their locks: the fleet store's first, then the host store's, each within the lock
/// timeout, the wait recorded. What runs (`Runner`) and hand repairs (`StoreMaintenance`) share.
struct RunStores: Sendable {
    let store: any MilepostStore
    let hostStore: (any MilepostStore)?
    let lockTimeout: Duration
    let logger: Logger

    /// Takes the fleet store's lock for `body` under a new run's journal and releases it however
    /// `body` ends (`LockedStore.holding(stopGrace:_:)`: a lost lease cancels `body` and is thrown).
    /// - throws: `StoreBusy` when the wait for the lock runs out, or what `body` throws.
    func withLock<Result: Sendable>(
        app: String?, stopGrace: StopGrace? = nil, _ body: @escaping @Sendable (any LockedStore, RunJournal) async throws -> Result
    ) async throws -> Result {
        let journal = RunJournal(run: RunJournal.newRunID(), app: app)
        let holder = LockHolder(pid: ProcessIdentity.pid, host: ProcessIdentity.host, since: Timestamp.now(), run: journal.run)
        return try await lock(store, holder: holder).holding(stopGrace: stopGrace) { try await body($0, journal) }
    }

    /// Runs `body` holding the host store's lock (taken after the fleet store's, the same way), or
    /// with nil when the run records nothing there: without a host store, or (given `manifest`)
    /// without host steps.
    func withHostLock<Result: Sendable>(
        _ manifest: Manifest?, journal: RunJournal, _ body: @escaping @Sendable ((any LockedStore)?) async throws -> Result
    ) async throws -> Result {
        guard let hostStore, manifest.map(usesHostStore) ?? true else { return try await body(nil) }
        let holder = LockHolder(pid: ProcessIdentity.pid, host: ProcessIdentity.host, since: Timestamp.now(), run: journal.run)
        return try await lock(hostStore, holder: holder).holding { try await body($0) }
    }

    /// Takes `store`'s lock for `holder` within the lock timeout, the wait recorded
    /// (`RunTelemetry.lockWait`).
    /// - throws: `StoreBusy` when the wait runs out, naming the holder and the step it runs.
    private func lock(_ store: any MilepostStore, holder: LockHolder) async throws -> any LockedStore {
        do {
            return try await RunTelemetry.lockWait(store: store) {
                try await store.lock(timeout: lockTimeout, holder: holder)
            }
        } catch let error as StoreError {
            guard case .lockTimeout(_, _, let holder) = error else { throw error }
            throw StoreBusy(.lock(error), holder: holder, step: StoreBusy.holderStep(try? await store.readState(), holder: holder))
        }
    }

    /// Whether a run of `manifest` records anything in the host store.
    func usesHostStore(_ manifest: Manifest) -> Bool {
        hostStore != nil && manifest.steps.contains { $0.scope == .host }
    }

    /// Refuses a host store that is the fleet store under another spelling (`MilepostStore.identity`):
    /// its host steps would be recorded as the fleet's, and its lock, taken after the fleet's, would
    /// wait for this very process.
    /// - throws: `HostStoreIsFleetStore`.
    func refuseFleetStoreAsHostStore() throws(HostStoreIsFleetStore) {
        guard let hostStore, hostStore.identity == store.identity else { return }
        throw HostStoreIsFleetStore(hostStore: hostStore.location, store: store.location)
    }
}
