import MilepostYAML

// The keys of late steps, renamed steps, required stops and reverts: `late:`, `replaces:`,
// `upgrade_from:`, `stops:`, `revert:`.
extension ManifestDecoder {
    /// A step's revert: the manifest's `revert:` (for a step that `revertsWithManifestParameters`;
    /// `revert: none` for any step without a registered revert), else the one registered with it. `.some(nil)`: the step has none; nil: `revert:` is invalid.
    mutating func revert(
        _ node: YAMLNode?, of definition: StepDefinition, name: String, parameters: any Sendable
    ) -> StepRevert?? {
        guard let node else { return .some(definition.revert.map { StepRevert(body: $0, parameters: parameters) }) }
        if Self.isNone(node) {
            guard !definition.hasRegisteredRevert else {
                error("step '\(name)' has a revert registered with it: 'revert: none' would skip it", at: node.location)
                return nil
            }
            return .some(.nothing)
        }
        guard definition.revertsWithManifestParameters else {
            error("step '\(name)' takes no 'revert' in the manifest: its revert, if it has one, is registered with it",
                  at: node.location)
            return nil
        }
        do {
            return .some(StepRevert(body: definition.body, parameters: try definition.decodeParameters(node, parameterDecoder)))
        } catch let failure {
            error("step '\(name)' revert: \(secrets.redact(failure.message))", at: failure.location ?? node.location,
                  notes: failure.notes)
            return nil
        }
    }

    /// `revert: none`, written plain: the step has nothing to undo.
    static func isNone(_ node: YAMLNode) -> Bool { node.scalarStyle == .plain && node.scalar == "none" }

    /// `late: warn | run | fail`.
    mutating func latePolicy(_ node: YAMLNode) -> LatePolicy? {
        guard let text = string(node, what: "'late'") else { return nil }
        guard let policy = LatePolicy(rawValue: text) else {
            error("invalid late '\(text)': expected warn, run or fail", at: node)
            return nil
        }
        return policy
    }

    /// `stops: [2.5, 3.0]`: a list of versions, each once.
    mutating func stops(_ node: YAMLNode) -> [Version] {
        guard node.kind == .sequence else {
            error("'stops' is a list of versions", at: node)
            return []
        }
        var result: [Version] = []
        for element in node.elements {
            guard let text = string(element, what: "a stop"), let stop = version(text, at: element) else { continue }
            if result.contains(stop) {
                error("the stop '\(text)' is listed twice", at: element)
                continue
            }
            result.append(stop)
        }
        return result
    }

    /// `replaces:` names an id (`ID`, under the same threshold) or a full id (`THRESHOLD/ID`).
    mutating func checkReplacedID(_ text: String, at node: YAMLNode) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let valid = switch parts.count {
        case 1: StepName.isValid(text)
        case 2: (try? Version(parsing: String(parts[0]))) != nil && StepName.isValid(String(parts[1]))
        default: false
        }
        if !valid {
            error("invalid replaces '\(text)': write the id of the step it renames, ID or THRESHOLD/ID", at: node)
        }
        return valid
    }

    /// The full id `replaces: text` names from a step under `thresholdText`.
    static func fullID(_ text: String, thresholdText: String) -> String {
        text.contains("/") ? text : "\(thresholdText)/\(text)"
    }

    /// A step may not replace a step the manifest still has, nor one another step already replaces.
    mutating func checkReplaces(_ steps: [ManifestStep]) {
        let ids = Set(steps.map(\.id))
        var claimed: [String: ManifestStep] = [:]
        for step in steps {
            guard let old = step.replaces else { continue }
            if ids.contains(old) {
                error("\(step.id) replaces \(old), which is still in the manifest; remove one of them", at: step.location)
            } else if let first = claimed[old] {
                error("\(step.id) and \(first.id) both replace \(old)", at: step.location,
                      notes: [.init("\(first.id) is here", at: first.location)])
            } else {
                claimed[old] = step
            }
        }
    }
}
