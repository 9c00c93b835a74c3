extension Runner {
    /// Whether a run of `manifest` to `target` from `state` (already at `target`) has a repeatable
    /// step to run: `RunOptions.checksRepeatableSteps`.
    func repeatableStepsAreDue(_ manifest: Manifest, state: StoredState, to target: Version) async throws -> Bool {
        guard manifest.steps.contains(where: { $0.repeats != nil }) else { return false }
        let plan = try await plan(manifest, state: state, to: target)
        return plan.entries.contains { $0.step.repeats != nil && $0.status == .pending }
    }
}
