import MilepostYAML

extension ManifestDecoder {
    /// Warns when `key`, an unquoted threshold, is the same YAML number as an earlier unquoted one
    /// in `numbers`: `2.1:` and `2.10:` are two versions to Milepost, but both the float 2.1 to other
    /// YAML tools (schema validators, editors), which then see one key twice.
    mutating func warnIfSameNumber(
        _ key: YAMLNode, text: String, among numbers: inout [Double: (text: String, location: SourceLocation)]
    ) {
        guard key.scalarStyle == .plain else { return }
        let number: Double
        switch key.coreValue {
        case .int(let value): number = Double(value)
        case .float(let value): number = value
        default: return
        }
        guard let first = numbers[number] else {
            numbers[number] = (text, key.location)
            return
        }
        warning(
            "thresholds '\(first.text)' and '\(text)' are the same number to other YAML tools, which read them as one "
                + "duplicate key: quote both (\"\(first.text)\": and \"\(text)\":)",
            at: key.location, notes: [.init("'\(first.text)' is here", at: first.location)])
    }
}
