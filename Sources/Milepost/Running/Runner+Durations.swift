public import Logging

extension Runner {
    /// How long steps took on this store and on the `options.history` stores: each journal read
    /// once, whole (`StepDurations`). Writes nothing.
    public func stepDurations() async throws -> StepDurations {
        try await Self.stepDurations(of: [store] + options.history, logger: logger)
    }

    /// How long steps took on `stores`, each journal read once, whole. A store whose journal has a
    /// line that is not a record adds nothing and is logged as a warning.
    public static func stepDurations(of stores: [any MilepostStore], logger: Logger) async throws -> StepDurations {
        var durations = StepDurations()
        for store in stores {
            do {
                durations.add(journal: try await store.readJournal(), state: try await store.readState())
            } catch let error as StoreError {
                guard case .io(_, .malformed) = error else { throw error }
                logger.warning("the durations of \(store.location) are unknown: \(error)")
            }
        }
        return durations
    }

    /// The run's deadline, from `startedAt`; nil without `options.deadline`.
    func runDeadline(startedAt: ContinuousClock.Instant) async throws -> RunDeadline? {
        guard let deadline = options.deadline else { return nil }
        return RunDeadline(deadline: deadline, end: startedAt + deadline, durations: try await stepDurations())
    }
}
