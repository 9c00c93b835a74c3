extension Runner {
    /// The completed steps of `state` that `manifest` no longer has: neither a step's id nor the
    /// id a step `replaces:`. Each id once, in the order it completed.
    static func orphans(of state: StoredState?, in manifest: Manifest) -> [CompletedStep] {
        var known = Set(manifest.steps.map(\.id))
        known.formUnion(manifest.steps.compactMap(\.replaces))
        return (state?.completed ?? []).filter { known.insert($0.id).inserted }
    }
}
