extension Runner {
    /// What a run would do (`plan(_:to:)`), with its record for review (`PlanFile`, `plan --out`):
    /// a run given the record (`RunOptions.reviewedPlan`) runs exactly these steps or refuses.
    /// `files` are the other files the plan depends on (the env file, the lock file). Writes nothing.
    public func reviewablePlan(_ manifest: Manifest, to target: Version, files: [String] = []) async throws -> (plan: Plan, file: PlanFile) {
        let (plan, state) = try await planWithState(manifest, to: target)
        return (plan, PlanFile(plan, manifest: manifest, state: state, store: store.location, files: files))
    }
}
