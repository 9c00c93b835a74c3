import MilepostSystem
import MilepostYAML

// The manifest's `hooks:`: `before_run`, `after_run`, `on_failure`, each a list of step entries.
extension ManifestDecoder {
    static let hookKeys = ManifestHooks.Phase.allCases.map(\.rawValue)

    /// `hooks:`: a mapping of phases to lists of entries, decoded as steps are (the phase stands
    /// for the threshold in their ids). Keys that only mean something for a recorded step are refused.
    mutating func hooks(_ node: YAMLNode) -> ManifestHooks {
        var hooks = ManifestHooks()
        guard node.kind == .mapping else {
            error("'hooks' maps before_run, after_run and on_failure to lists of steps", at: node)
            return hooks
        }
        for (key, value) in node.pairs {
            guard let name = key.scalar, let phase = ManifestHooks.Phase(rawValue: name) else {
                let name = key.scalar ?? "?"
                let suggestion = NameSuggestion.closest(to: name, among: Self.hookKeys)
                error("unknown key '\(name)' in 'hooks'", at: key.location,
                      notes: [.init(suggestion.map { "did you mean '\($0)'?" } ?? "expected one of: \(Self.hookKeys.joined(separator: ", "))")]
                        + key.useNotes)
                continue
            }
            hooks[phase] = steps(value, threshold: .zero, thresholdText: phase.rawValue).filter { hook in
                let refused = [
                    ("late", hook.late != nil), ("replaces", hook.replaces != nil), ("repeat", hook.repeats != nil),
                    ("expected", hook.expected != nil), ("requires", hook.requiresApproval),
                ]
                    .filter(\.1).map(\.0)
                for key in refused {
                    error("hook \(hook.id): '\(key)' applies only to steps under 'migrations'", at: hook.location)
                }
                return refused.isEmpty
            }
        }
        return hooks
    }
}
