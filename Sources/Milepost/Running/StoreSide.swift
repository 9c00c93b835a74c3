import Logging

/// One store a run reads and, holding its lock, writes: the fleet's store or this host's
/// (`StepScope`), each read once per plan — its state, its lock's holder when read without the
/// lock, and its journal at most once, whichever of the planner's rules ask (`StoreHistory`).
struct StoreSide: Sendable {
    let scope: StepScope
    let store: any MilepostStore
    /// The store's lock, when the run holds it; nil when the side is only read.
    let locked: (any LockedStore)?
    let state: StoredState?
    /// Who held the lock when the side was read without it: tells a running step from an
    /// interrupted one. Nil under the lock, and when the reader does not ask.
    let lockHolder: LockHolder?
    /// The store's journal, read the first time a rule asks.
    let history: StoreHistory

    /// `store`'s side, read without its lock; with `holder`, its lock's holder too.
    static func read(_ store: any MilepostStore, scope: StepScope, holder: Bool, logger: Logger) async throws -> StoreSide {
        StoreSide(
            scope: scope, store: store, locked: nil, state: try await store.readState(),
            lockHolder: holder ? try await store.lockHolder() : nil, history: StoreHistory(store: store, logger: logger))
    }

    /// `store`'s side as read earlier without its lock, its holder not asked.
    static func seen(_ state: StoredState?, of store: any MilepostStore, scope: StepScope, logger: Logger) -> StoreSide {
        StoreSide(scope: scope, store: store, locked: nil, state: state, lockHolder: nil, history: StoreHistory(store: store, logger: logger))
    }

    /// `store`'s side under its lock `locked`, with `state` as read under it.
    static func locked(
        _ locked: any LockedStore, of store: any MilepostStore, scope: StepScope, state: StoredState?, logger: Logger
    ) -> StoreSide {
        StoreSide(
            scope: scope, store: store, locked: locked, state: state, lockHolder: nil,
            history: StoreHistory(store: store, logger: logger))
    }

    /// The version a run on this store starts from: the stored version, or the manifest's baseline.
    func from(_ manifest: Manifest) -> Version { state?.version ?? manifest.baseline }

    /// What the planner reads of this store.
    func records(_ manifest: Manifest) async throws -> Planner.StoreRecords {
        Planner.StoreRecords(state: state, from: from(manifest), lateFloor: try await lateFloor(manifest), lockHolder: lockHolder)
    }
}

/// The sides of one run: the fleet's store, always, and this host's when the run has a host store.
struct RunSides: Sendable {
    var fleet: StoreSide
    var host: StoreSide?

    /// The side that records the steps of `scope`; nil for host steps without a host store.
    subscript(scope: StepScope) -> StoreSide? {
        switch scope {
        case .fleet: fleet
        case .host: host
        }
    }

    /// Both sides' states, the fleet's first.
    var states: [StoredState] { [fleet.state, host?.state].compactMap { $0 } }
}
