/// The completed steps a manifest lacks: orphans (deleted, or renamed without `replaces:`) and
/// steps of a newer release — what `status` and `validate --store` report.
enum UnknownSteps {
    /// The completed steps of `state` that `manifest` no longer has — neither a step's id nor the
    /// id a step `replaces:` — each once, in the order it completed, told apart by threshold: one
    /// above `newest` is a step of a newer release (the store ran a release this manifest predates),
    /// any other an orphan (deleted, or renamed without `replaces:`).
    /// - parameter newest: the newest version the manifest speaks for: its last threshold, or the
    ///   target when that is higher (`newestVersion(of:target:)`).
    static func of(
        _ state: StoredState?, in manifest: Manifest, newest: Version
    ) -> (orphans: [CompletedStep], newer: [CompletedStep]) {
        var known = Set(manifest.steps.map(\.id))
        known.formUnion(manifest.steps.compactMap(\.replaces))
        let unknown = (state?.completed ?? []).filter { known.insert($0.id).inserted }
        let isNewer = { (step: CompletedStep) in Version.threshold(ofStep: step.id).map { $0 > newest } ?? false }
        return (unknown.filter { !isNewer($0) }, unknown.filter(isNewer))
    }

    /// The newest version `manifest` speaks for: its last threshold (the baseline without steps),
    /// or `target` when that is higher (a release whose own version has no step).
    static func newestVersion(of manifest: Manifest, target: Version?) -> Version {
        max(manifest.steps.map(\.threshold).max() ?? manifest.baseline, target ?? .zero)
    }
}
