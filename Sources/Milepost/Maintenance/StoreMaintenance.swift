public import Logging
import MilepostSystem

/// Hand repairs of a store: `baseline` and `resolve`, each under the lock and journaled, as
/// `milepost baseline` and `milepost resolve` make them (`StoreCopy` moves a store's history).
///
/// ```swift
/// let maintenance = StoreMaintenance(store: FileStore(path: ".milepost"))
/// try await maintenance.resolve("2.1/removeEmptyNotes", .retry)
/// ```
public struct StoreMaintenance: Sendable {
    let stores: RunStores

    /// Repairs of `store`; with `hostStore`, this host's store too (a `scope: host` step's marks
    /// are there). Each waits up to `lockTimeout` for a lock, as a run does; without `logger`
    /// nothing is logged.
    public init(
        store: any MilepostStore, hostStore: (any MilepostStore)? = nil, lockTimeout: Duration = RunOptions().lockTimeout,
        logger: Logger = Logger(label: "milepost", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.init(stores: RunStores(store: store, hostStore: hostStore, lockTimeout: lockTimeout, logger: logger))
    }

    init(stores: RunStores) {
        self.stores = stores
    }

    /// What `resolve` does to an interrupted or failed step.
    public enum Resolution: String, Sendable {
        /// Record the step as completed without running it (you finished or undid it by hand).
        case done
        /// Clear the mark so the next run runs the step again, at its last cursor if it committed one.
        case retry
    }

    /// Why a maintenance command was refused.
    public enum MaintenanceError: Error, Sendable, Equatable, CustomStringConvertible {
        /// `baseline` on a store that already has a state, without `force`.
        case stateExists(version: String)
        /// `resolve` of a step that is neither interrupted nor failed.
        case nothingToResolve(id: String, interrupted: String?, failed: String?)

        public var description: String {
            switch self {
            case .stateExists(let version):
                "the store already records version \(version)"
            case .nothingToResolve(let id, let interrupted, let failed):
                "step \(id) is neither interrupted nor failed"
                    + (interrupted.map { "; interrupted: \($0)" } ?? "") + (failed.map { "; failed: \($0)" } ?? "")
                    + (interrupted == nil && failed == nil ? "; nothing on this store is interrupted or failed"
                        : NameSuggestion.closest(to: id, among: [interrupted, failed].compactMap { $0 }).map { "; did you mean '\($0)'?" } ?? "")
            }
        }
    }

    /// Sets the stored version to `version` (like Flyway's baseline): steps at or below it will
    /// never run. Clears any interrupted or failed mark, and an unfinished revert: a baseline says
    /// what the store has, so the revert's target no longer applies.
    /// - throws: `MaintenanceError.stateExists` when a state exists and `force` is false.
    public func baseline(_ version: Version, force: Bool = false) async throws -> StoredState {
        try await stores.withLock(app: nil) { locked, journal in
            let previous = try await stores.readStateWaitingForOrphanedStep(locked)
            if let previous, !force { throw MaintenanceError.stateExists(version: previous.version.text) }
            var state = previous ?? StoredState(app: nil, version: version, updatedAt: Timestamp.now())
            state.version = version
            state.clearAllMarks()
            state.reverting = nil
            state.updatedAt = Timestamp.now()
            try await locked.commit(state, journal: [
                journal.record(.baseline, from: previous?.version, to: version)
            ])
            return state
        }
    }

    /// Clears an interrupted or failed step by hand; journaled as `resolved`. Touches only the
    /// step named `id`: a different step's interrupted or failed mark stays.
    ///
    /// For a step whose revert was interrupted or failed (`direction: revert`), `.done` records the
    /// revert as done (the step is no longer completed) and `.retry` lets the next revert run it again.
    ///
    /// `.retry` keeps the step's cursor, if it committed one: the mark becomes a failure that the
    /// next run resumes at the cursor. With `fromStart`, the cursor is discarded and the step
    /// starts over.
    /// A step whose runner is gone but whose processes still run on this machine is waited for
    /// first (the lock timeout), as `run` does.
    ///
    /// With a host store (`hostStore`), the step is looked for in both stores, under both locks
    /// (the fleet store's first, as a run takes them), and resolved where its mark is: a `scope:
    /// host` step's is in the host store. Returns the state of the store that had it.
    /// - throws: `MaintenanceError.nothingToResolve` when `id` is neither interrupted nor failed;
    ///   `StepStillRunningError` when its processes outlast the wait; `HostStoreIsFleetStore`.
    public func resolve(_ id: String, _ resolution: Resolution, fromStart: Bool = false) async throws -> StoredState {
        try stores.refuseFleetStoreAsHostStore()
        return try await stores.withLock(app: nil) { locked, journal in
            try await stores.withHostLock(nil, journal: journal) { host in
                try await resolve(id, resolution, fromStart: fromStart, in: [locked] + (host.map { [$0] } ?? []), journal: journal)
            }
        }
    }

    /// `resolve(_:_:fromStart:)` over the locked stores of the run, the fleet store's first: each
    /// read once no orphaned step runs there, the step resolved in the first that marks it.
    private func resolve(
        _ id: String, _ resolution: Resolution, fromStart: Bool, in locked: [any LockedStore], journal: RunJournal
    ) async throws -> StoredState {
        var states: [StoredState?] = []
        for store in locked { states.append(try await stores.readStateWaitingForOrphanedStep(store)) }
        guard let index = states.firstIndex(where: { $0?.interruptedMark(of: id) != nil || $0?.failure(of: id) != nil }),
              var state = states[index]
        else {
            let all = states.compactMap { $0 }
            throw MaintenanceError.nothingToResolve(
                id: id, interrupted: all.lazy.flatMap(\.interruptedMarks).first?.id, failed: all.lazy.flatMap(\.failures).first?.id)
        }
        let store = locked[index]
        // Only the named step's marks: another step's interrupted or failed mark stays.
        let interrupted = state.interruptedMark(of: id)
        let failed = state.failure(of: id)
        state.clearMarks(of: id)
        let cursor = interrupted?.cursor ?? failed?.cursor
        // A revert's mark (`direction: revert`): done means its undoing is complete, so the step is
        // no longer completed; retry lets the next revert run it again, from the start.
        let reverting = (interrupted?.direction ?? failed?.direction) == .revert
        if resolution == .retry, !fromStart, !reverting, let cursor {
            state.recordFailure(failed ?? FailedStep(
                id: id, run: journal.run, at: Timestamp.now(), error: "interrupted; resolved to run again at its cursor",
                cursor: cursor, stderr: interrupted?.stderr))
        }
        if resolution == .done {
            if reverting {
                state.completed.removeAll { $0.id == id }
            } else {
                // As the step's run would have: a contract step raises the compatibility floor.
                state.recordCompleted(
                    CompletedStep(id: id, at: Timestamp.now(), run: journal.run, fingerprint: "", via: "resolved"),
                    phase: interrupted?.phase ?? failed?.phase, replacing: true)
            }
        }
        state.updatedAt = Timestamp.now()
        let kept = resolution == .retry && !fromStart ? cursor : nil
        try await store.commit(state, journal: [journal.record(.resolved, step: id, outcome: .init(resolution), cursor: kept)])
        return state
    }
}

extension Runner {
    /// Hand repairs (`baseline`, `resolve`) of this runner's stores, with its lock timeout and logger.
    public var maintenance: StoreMaintenance { StoreMaintenance(stores: stores) }
}

extension JournalRecord.Outcome {
    /// The `resolved` outcome of `resolution`.
    init(_ resolution: StoreMaintenance.Resolution) {
        switch resolution {
        case .done: self = .done
        case .retry: self = .retry
        }
    }
}
