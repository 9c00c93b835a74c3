import MilepostSystem
import MilepostYAML

// The keys that choose when a step is in scope: `labels:` and `when:`.
extension ManifestDecoder {
    /// `labels: [eu, heavy]` (or one label): names for `--labels` expressions, each once.
    mutating func labels(_ node: YAMLNode) -> [String] {
        let elements = node.kind == .sequence ? Array(node.elements) : [node]
        var result: [String] = []
        for element in elements {
            guard let label = string(element, what: "a label") else { continue }
            guard LabelExpression.isLabel(label) else {
                error("invalid label '\(label)': use letters, digits, '_', '.' and '-', starting with a letter or '_'"
                    + (LabelExpression.keywords.contains(label.lowercased()) ? " (and, or and not are operators)" : ""),
                    at: element.location)
                continue
            }
            if result.contains(label) {
                error("the label '\(label)' is listed twice", at: element.location)
                continue
            }
            result.append(label)
        }
        return result
    }

    /// `when: fresh-install | upgrade`.
    mutating func condition(_ node: YAMLNode) -> StepCondition? {
        guard let text = string(node, what: "'when'") else { return nil }
        guard let condition = StepCondition(rawValue: text) else {
            let suggestion = NameSuggestion.closest(to: text, among: StepCondition.allCases.map(\.rawValue))
            error("invalid when '\(text)': expected fresh-install or upgrade", at: node.location,
                  notes: suggestion.map { [.init("did you mean '\($0)'?")] } ?? [])
            return nil
        }
        return condition
    }
}
