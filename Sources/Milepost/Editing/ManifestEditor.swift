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
            lines.insert(indent + "- " + name, at: last)
        } else {
            let entry = [keyIndent + quoted(thresholdText) + ":", stepIndent + "- " + name]
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
}
