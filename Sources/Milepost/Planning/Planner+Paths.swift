extension Planner {
    /// Plans the upgrade of a store at each of `versions` to `target`, in the order given: one
    /// plan per upgrade path (`milepost plan --from A --from B`), each as
    /// `plan(_:state:from:origin:to:scope:)` plans a store that records `from` and nothing else
    /// (origin `.given`), so CI can check every path a release supports in one call.
    public static func plans(_ manifest: Manifest, from versions: [Version], to target: Version, scope: PlanScope = PlanScope()) -> [Plan] {
        versions.map { plan(manifest, state: nil, from: $0, origin: .given, to: target, scope: scope) }
    }
}
