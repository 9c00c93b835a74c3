import MilepostSystem

extension MilepostStore {
    /// Takes this store's lock, waiting up to `timeout`, for `body`, and releases it however `body`
    /// ends (`LockedStore.holding(stopGrace:_:)`).
    /// - throws: `StoreError.lockTimeout` naming the holder when the wait runs out, or what `body` throws.
    package func withLock<Result: Sendable>(
        timeout: Duration, holder: LockHolder, _ body: @escaping @Sendable (any LockedStore) async throws -> Result
    ) async throws -> Result {
        try await lock(timeout: timeout, holder: holder).holding(body)
    }
}

extension LockedStore {
    /// Runs `body` with this lock and releases it however `body` ends: the one place the library
    /// holds and releases a lock (runs and their host store, `store copy`, the testing kit). When
    /// the lock can be lost (`lease`) and is, `stopGrace` is shortened to what the loss leaves,
    /// `body` is cancelled and the loss is thrown.
    func holding<Result: Sendable>(
        stopGrace: StopGrace? = nil, _ body: @escaping @Sendable (any LockedStore) async throws -> Result
    ) async throws -> Result {
        do {
            let result: Result
            if let lease {
                result = try await LeaseRace.run(body: { try await body(self) }, against: lease, stopGrace: stopGrace)
            } else {
                result = try await body(self)
            }
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }
}

/// A body raced against the loss of its lock's lease.
private enum LeaseRace<Result: Sendable>: Sendable {
    case finished(Result)
    case lost(LockLoss)
    case watchEnded

    /// Runs `body` while watching the lease; a lost lease shortens `stopGrace` to what the loss
    /// leaves, cancels `body`, waits for it to stop (its step is journaled as interrupted if the
    /// fence still lets it write) and throws the loss, or the store error `body` stopped with.
    static func run(
        body: @escaping @Sendable () async throws -> Result, against lease: any ExpiringLockedStore, stopGrace: StopGrace?
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: LeaseRace<Result>.self) { group in
            group.addTask { .finished(try await body()) }
            group.addTask { await lease.lockLost().map { .lost($0) } ?? .watchEnded }
            while let next = try await group.next() {
                switch next {
                case .finished(let result):
                    group.cancelAll()
                    return result
                case .lost(let lost):
                    stopGrace?.shorten(to: lost.stopWithin)
                    // The body's own store error (the fence refusing its last checkpoint, a step's
                    // outcome the store could not record) says more.
                    // A statement the loss itself cancelled says less than the loss: that one is thrown.
                    group.cancelAll()
                    do {
                        while try await group.next() != nil {}
                    } catch let error as StoreError where !error.isQueryCanceled {
                        throw error
                    } catch let error as UnrecordedStepOutcome where !error.storeError.isQueryCanceled {
                        throw error
                    } catch {}
                    throw lost.error
                case .watchEnded:
                    continue
                }
            }
            preconditionFailure("the run's task group ended without its body")
        }
    }
}
