import MilepostSystem
import MilepostYAML

// The keys that place a step in a rollout: `phase:` (which run runs it), `scope:` (which store
// records it) and `requires:` (what it waits for).
extension ManifestDecoder {
    /// `phase: pre-start | contract | background`.
    mutating func phase(_ node: YAMLNode) -> StepPhase? {
        enumValue(node, key: "phase", StepPhase.self)
    }

    /// `after: background`: a contract step that waits for the background steps at or below its
    /// threshold (`ManifestStep.runsAfterBackground`). A phase name, so that the error lists it as one.
    mutating func after(_ node: YAMLNode) -> StepPhase? {
        enumValue(node, key: "after", StepPhase.self)
    }

    /// `after:` orders a contract step after the background steps: any other phase after, or on a
    /// step of another phase, is an error.
    mutating func checkOrder(_ after: (phase: StepPhase, location: SourceLocation)?, phase: StepPhase?) -> Bool {
        guard let after else { return true }
        guard after.phase == .background else {
            error("'after: \(after.phase.rawValue)' orders nothing: a contract step may wait for the background steps of its "
                  + "release ('after: background')", at: after.location)
            return false
        }
        guard phase == .contract else {
            error("'after: background' orders a contract step after the background steps; this step has "
                  + "'phase: \((phase ?? .preStart).rawValue)' (give it 'phase: contract')", at: after.location)
            return false
        }
        return true
    }

    /// `scope: fleet | host`.
    mutating func scope(_ node: YAMLNode) -> StepScope? {
        enumValue(node, key: "scope", StepScope.self)
    }

    /// `requires: approval`.
    mutating func requirement(_ node: YAMLNode) -> StepRequirement? {
        enumValue(node, key: "requires", StepRequirement.self)
    }

    private mutating func enumValue<Value: RawRepresentable & CaseIterable>(
        _ node: YAMLNode, key: String, _: Value.Type
    ) -> Value? where Value.RawValue == String {
        guard let text = string(node, what: "'\(key)'") else { return nil }
        let names = Value.allCases.map(\.rawValue)
        guard let value = Value(rawValue: text) else {
            let suggestion = NameSuggestion.closest(to: text, among: names)
            error("invalid \(key) '\(text)': expected \(names.joined(separator: ", "))", at: node.location,
                  notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [])
            return nil
        }
        return value
    }

    /// The combinations a step's placement cannot take: a host step runs when its own host
    /// upgrades (no rollout to wait for, no fleet-wide runner) and is not repeatable (not
    /// supported yet: docs/manifest.md); a repeatable step runs in every pre-start run.
    mutating func checkPlacement(_ phase: StepPhase?, scope: StepScope?, repeats: RepeatPolicy?, at node: YAMLNode) -> Bool {
        if scope == .host, let repeats {
            error("a 'scope: host' step cannot be repeatable ('repeat: \(repeats.rawValue)'): repeatable host steps are not supported yet", at: node)
            return false
        }
        guard let phase, phase != .preStart else { return true }
        if scope == .host {
            error("a 'scope: host' step cannot have 'phase: \(phase.rawValue)': it runs when its own host upgrades, "
                  + "in the pre-start run", at: node)
            return false
        }
        if repeats != nil {
            error("a repeatable step ('repeat:') cannot have 'phase: \(phase.rawValue)': it runs in the pre-start run", at: node)
            return false
        }
        return true
    }

    /// A background step that cannot resume: after a crash, its next run needs `resolve` first.
    mutating func warnIfNotResumable(phase: StepPhase, resumable: Bool, idempotent: Bool, at location: SourceLocation) {
        guard phase == .background, !resumable, !idempotent else { return }
        warning(
            "a 'phase: background' step should be resumable (resumable: true, committing a cursor as it goes): "
                + "a background runner stopped mid-way otherwise needs 'milepost resolve' before it runs again",
            at: location)
    }
}
