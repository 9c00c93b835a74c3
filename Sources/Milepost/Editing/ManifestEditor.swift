import MilepostYAML

/// Edits a manifest's text without re-serializing it: comments, quoting and layout stay byte for
/// byte, only the lines of the edit are added.
public enum ManifestEditor {
    /// Why a step cannot be added by editing the text.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// `text` with the short-form step `name` appended to the steps of `threshold`: after the last
    /// step of the threshold written as equal to it, or under a new threshold inserted in version order.
    /// - throws: `Refusal` when the text does not parse or the place cannot be edited as lines (a flow
    ///   `[…]` list or mapping, no block `migrations:`).
    public static func appending(step name: String, threshold: Version, thresholdText: String, to text: String) throws(Refusal) -> String {
        try appending(entry: [name], threshold: threshold, thresholdText: thresholdText, to: text)
    }

    /// `text` with a long-form `exec` step appended like `appending(step:…)`: `- name: exec`, `id: ID`
    /// and `with: {command: [COMMAND, ARGS…]}`, each argument double-quoted (escaped so that YAML
    /// reads it back byte for byte), the id plain only when YAML reads it as that string.
    /// - throws: `Refusal` as `appending(step:…)` does.
    public static func appending(
        execID id: String, command: [String], threshold: Version, thresholdText: String, to text: String
    ) throws(Refusal) -> String {
        let entry = [
            "name: exec",
            "id: " + scalar(id),
            "with: {command: [" + command.map(doubleQuoted).joined(separator: ", ") + "]}",
        ]
        return try appending(entry: entry, threshold: threshold, thresholdText: thresholdText, to: text)
    }

    /// `entry`'s first line after `- `, the others aligned under it.
    private static func appending(entry: [String], threshold: Version, thresholdText: String, to text: String) throws(Refusal) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let document: YAMLDocument
        do {
            document = try YAMLDocument.parse(Array(text.utf8))
        } catch {
            throw Refusal(description: "the manifest does not parse: \(error.errors.first?.message ?? "invalid YAML")")
        }
        guard let root = document.root, root.kind == .mapping,
            let migrationsPair = root.pairs.first(where: { $0.key.scalar == "migrations" })
        else { throw Refusal(description: "the manifest has no 'migrations' mapping") }
        let migrations = migrationsPair.value
        guard migrations.kind == .mapping, !migrations.pairs.isEmpty, migrations.location.line > migrationsPair.key.location.line
        else { throw Refusal(description: "'migrations' is not a block mapping with thresholds; add the step by hand") }

        // Where the migrations end: before the next top-level key, or at the end of the file.
        let nextTopLevel = root.pairs.map(\.key.location.line).filter { $0 > migrationsPair.key.location.line }.min()
        let migrationsEnd = (nextTopLevel ?? lines.count + 1) - 1
        let thresholds = migrations.pairs.map { pair in
            (key: pair.key, steps: pair.value, version: pair.key.scalar.flatMap { try? Version(parsing: $0) })
        }
        let keyIndent = String(repeating: " ", count: thresholds[0].key.location.column - 1)
        let stepIndent = thresholds.lazy.compactMap { $0.steps.kind == .sequence && $0.steps.location.line > $0.key.location.line
            ? String(repeating: " ", count: $0.steps.location.column - 1) : nil }.first ?? keyIndent + "  "

        if let index = thresholds.firstIndex(where: { $0.version == threshold }) {
            let existing = thresholds[index]
            guard existing.steps.kind == .sequence, existing.steps.location.line > existing.key.location.line else {
                throw Refusal(description: "the steps of '\(existing.key.scalar ?? thresholdText)' are not a block list; add the step by hand")
            }
            let end = index + 1 < thresholds.count ? thresholds[index + 1].key.location.line - 1 : migrationsEnd
            let last = lastContentLine(in: lines, from: existing.key.location.line, through: end)
            let indent = String(repeating: " ", count: existing.steps.location.column - 1)
            lines.insert(contentsOf: item(entry, indent: indent), at: last)
        } else {
            let entry = [keyIndent + quoted(thresholdText) + ":"] + item(entry, indent: stepIndent)
            if let higher = thresholds.first(where: { ($0.version.map { $0 > threshold }) ?? false }) {
                // Before the higher threshold and the comment lines just above it.
                var line = higher.key.location.line
                while line > 1, lines[line - 2].trimmingPrefix(while: { $0 == " " }).hasPrefix("#") { line -= 1 }
                lines.insert(contentsOf: entry, at: line - 1)
            } else {
                let last = lastContentLine(in: lines, from: migrationsPair.key.location.line, through: migrationsEnd)
                lines.insert(contentsOf: entry, at: last)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A block list item: `- first`, then the other lines under it.
    private static func item(_ entry: [String], indent: String) -> [String] {
        entry.enumerated().map { indent + ($0.offset == 0 ? "- " : "  ") + $0.element }
    }

    /// The 1-based number of the last line in `first...last` that is neither blank nor only a comment.
    private static func lastContentLine(in lines: [String], from first: Int, through last: Int) -> Int {
        var line = min(last, lines.count)
        while line > first {
            let trimmed = lines[line - 1].trimmingPrefix(while: { $0 == " " })
            if !trimmed.isEmpty, !trimmed.hasPrefix("#") { break }
            line -= 1
        }
        return line
    }

    /// The threshold as a key: quoted, so that no YAML tool reads `2.10` as the number 2.1.
    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    /// `text` plain when it is a step name no YAML tool reads as a boolean or null, else double-quoted.
    static func scalar(_ text: String) -> String {
        let special: Set = ["y", "n", "yes", "no", "on", "off", "true", "false", "null"]
        return StepName.isValid(text) && !special.contains(text.lowercased()) ? text : doubleQuoted(text)
    }

    /// `text` as a YAML double-quoted scalar: `"` and `\` escaped, and every character YAML does not
    /// allow in a document or reads as a line break (C0 and C1 controls, DEL, NEL, U+2028, U+2029,
    /// U+FEFF, U+FFFE, U+FFFF) written as an escape, so the value reads back as given.
    static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
