extension Runner {
    /// In a contract run (`RunOptions.phase`), waits until no due contract step waits for background
    /// steps (`after: background`, `Plan.waitingForBackground`): the background runner completes
    /// them while this reads the state without the lock every second, up to `options.lockTimeout`.
    /// Returns at once for a run of another phase, which leaves such a step waiting.
    /// - returns: whether it waited: the state read before is then out of date.
    /// - throws: `StoreBusy` (`.backgroundSteps`) when they are still unfinished after the timeout,
    ///   naming what the lock's holder is running.
    func waitForBackgroundSteps(_ manifest: Manifest, to target: Version) async throws -> Bool {
        guard options.phase == .contract, manifest.steps.contains(where: \.runsAfterBackground) else { return false }
        let clock = ContinuousClock()
        let started = clock.now
        var slept = false
        while true {
            let sides = try await readSides()
            let (state, holder) = (sides.fleet.state, sides.fleet.lockHolder)
            let plan = try await plan(manifest, sides: sides, to: target)
            let waiting = plan.waitingForBackground
            let waited = clock.now - started
            guard !waiting.isEmpty else { return slept }
            guard waited < options.lockTimeout else {
                var background: [String] = []
                for id in waiting.flatMap(\.background) where !background.contains(id) { background.append(id) }
                throw StoreBusy(
                    .backgroundSteps(background, contract: waiting.map(\.step.id), waited: options.lockTimeout), holder: holder,
                    step: StoreBusy.holderStep(state, holder: holder))
            }
            try await Task.sleep(for: min(.seconds(1), options.lockTimeout - waited))
            slept = true
        }
    }
}
