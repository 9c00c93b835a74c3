import MilepostYAML

// The key of repeatable steps: `repeat:`.
extension ManifestDecoder {
    /// `repeat: on-change`.
    mutating func repeatPolicy(_ node: YAMLNode) -> RepeatPolicy? {
        guard let text = string(node, what: "'repeat'") else { return nil }
        guard let policy = RepeatPolicy(rawValue: text) else {
            error("invalid repeat '\(text)': expected on-change", at: node)
            return nil
        }
        return policy
    }
}
