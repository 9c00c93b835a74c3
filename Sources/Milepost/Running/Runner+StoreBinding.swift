/// Steps that need a particular store (see `StoreBoundParameters`).
extension Runner {
    /// Refuses a manifest with a step that cannot run against this runner's store, such as an `sql`
    /// step against a file store, before anything runs.
    /// - throws: `ManifestError.invalid` with one diagnostic per refused step (exit 65).
    func refuseStepsTheStoreCannotRun(_ manifest: Manifest) throws(ManifestError) {
        let diagnostics = manifest.steps.compactMap { step -> Diagnostic? in
            guard let bound = step.storeBoundParameters,
                  let refusal = bound.refusal(for: store) else { return nil }
            return Diagnostic(.error, "step \(step.id): \(refusal)", file: manifest.source.path, at: step.location)
        }
        if !diagnostics.isEmpty { throw .invalid(diagnostics, source: manifest.source) }
    }

    /// Whether `step` runs inside the transaction of its checkpoint on `locked`.
    func checkpointTransaction(for step: ManifestStep, on locked: any LockedStore) -> (any TransactionalLockedStore)? {
        guard step.storeBoundParameters?.runsInCheckpointTransaction == true else { return nil }
        return locked.stepTransactions
    }
}
