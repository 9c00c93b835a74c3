/// What `milepost revert --to V` undoes: the completed steps whose threshold is above V, in the
/// reverse of the order they ran (threshold descending, and under one threshold the reverse of the
/// manifest's order), and the completed steps above V that cannot be undone.
public struct RevertPlan: Sendable {
    /// A completed step above the target that has no revert: the revert refuses before any runs.
    public struct Irreversible: Sendable, Equatable {
        public enum Reason: String, Sendable, Codable {
            /// The manifest step has no revert (none registered, no `revert:`).
            case noRevert = "no-revert"
            /// The store records it as completed, and the manifest no longer has it.
            case notInManifest = "not-in-manifest"
        }

        /// `THRESHOLD/ID`.
        public let id: String
        public let reason: Reason

        public init(id: String, reason: Reason) {
            self.id = id
            self.reason = reason
        }
    }

    /// The stored version the revert starts from.
    public let from: Version
    /// The version it stores when every revert succeeded.
    public let to: Version
    /// The steps whose reverts run, in order.
    public let steps: [ManifestStep]
    /// Completed steps above `to` without a revert, in the same order.
    public let irreversible: [Irreversible]

    /// Plans a revert of `state` to `target` with `manifest`'s steps.
    public static func plan(_ manifest: Manifest, state: StoredState, to target: Version) -> RevertPlan {
        let completed = Set(state.completed.map(\.id))
        var known = Set<String>()
        var steps: [ManifestStep] = []
        var irreversible: [Irreversible] = []
        for step in manifest.steps.reversed() {
            known.insert(step.id)
            if let old = step.replaces { known.insert(old) }
            guard step.threshold > target, completed.contains(step.id) || step.replaces.map(completed.contains) == true
            else { continue }
            if step.hasRevert { steps.append(step) } else { irreversible.append(Irreversible(id: step.id, reason: .noRevert)) }
        }
        for record in state.completed.reversed() where !known.contains(record.id) {
            guard let threshold = Version.threshold(ofStep: record.id), threshold > target else { continue }
            irreversible.append(Irreversible(id: record.id, reason: .notInManifest))
        }
        return RevertPlan(from: state.version, to: target, steps: steps, irreversible: irreversible)
    }
}
