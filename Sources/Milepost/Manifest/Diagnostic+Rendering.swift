/// The parts of a rendered diagnostic that a terminal may set apart (the CLI colours them).
public enum DiagnosticPart: Sendable, Hashable {
    /// `error:`
    case error
    /// `warning:`
    case warning
    /// The diagnostic's message.
    case message
    /// `note:`
    case note
    /// The `^` under the column.
    case caret
}

extension Diagnostic: CustomStringConvertible {
    /// The diagnostic as a compiler prints it, without the source line: `file:line:col: error:
    /// message`, then its notes.
    public var description: String { rendered() }

    /// The diagnostic as a compiler prints it: `file:line:col: error: message`, the line of `source`
    /// it points at with a caret under the column (only when `source` is the diagnostic's file),
    /// then each note (`file:line:col: note: …`, quoted the same way). Control characters in the
    /// texts are escaped, so the rendering is inert on a terminal. `highlight` wraps each part
    /// (`milepost` colours them on a terminal); by default the text is left as it is.
    public func rendered(
        source: ManifestSource? = nil, highlight: (String, DiagnosticPart) -> String = { text, _ in text }
    ) -> String {
        let severity = self.severity == .error ? highlight("error:", .error) : highlight("warning:", .warning)
        var lines = ["\(Self.place(file, location.map { ($0.line, $0.column) })) \(severity) \(highlight(message.escapingControlCharacters(), .message))"]
        // Only the manifest's lines are at hand: a finding in another file (the lock file) is not quoted.
        let quoted = source.flatMap { $0.path == file ? $0 : nil }
        if let location, let quoted { lines += Self.excerpt(quoted, line: location.line, column: location.column, highlight: highlight) }
        for note in notes {
            let label = highlight("note:", .note)
            if let location = note.location {
                lines.append("\(Self.place(file, (location.line, location.column))) \(label) \(note.message.escapingControlCharacters())")
                if let quoted { lines += Self.excerpt(quoted, line: location.line, column: location.column, highlight: highlight) }
            } else {
                lines.append("\(label) \(note.message.escapingControlCharacters())")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func place(_ file: String, _ location: (line: Int, column: Int)?) -> String {
        let file = file.escapingControlCharacters()
        return location.map { "\(file):\($0.line):\($0.column):" } ?? "\(file):"
    }

    /// The most of a line an excerpt quotes, in Unicode scalars: a window around the column, `…`
    /// marking what is cut. A long line (a minified manifest, a fuzzer's input) quoted whole for
    /// each of its findings made rendering quadratic: 918 findings on one 4 KiB line took 5.2 G
    /// instructions.
    static let excerptWidth = 160

    /// The source line `number` quoted (a window of `excerptWidth` around `column` when it is
    /// longer), and a caret under `column`.
    private static func excerpt(
        _ source: ManifestSource, line number: Int, column: Int, highlight: (String, DiagnosticPart) -> String
    ) -> [String] {
        // The line's scalars, kept by the source: each finding costs its window, not its line.
        guard let scalars = source.scalars(ofLine: number) else { return [] }
        let count = scalars.count
        let caret = min(max(column - 1, 0), count)
        let start = max(0, min(caret - excerptWidth / 2, count - excerptWidth))
        let end = min(count, start + excerptWidth)
        let (lead, trail) = (start > 0 ? "…" : "", end < count ? "…" : "")
        let text = lead + Self.text(scalars[start..<end]).escapingControlCharacters(keepingTabs: true) + trail
        let number = String(number)
        let gutter = String(repeating: " ", count: number.count)
        let before = lead + Self.text(scalars[start..<caret])
        // A blank under each scalar of the line as printed, a tab under a tab (the caret lines up).
        var blanks: [UInt8] = []
        for scalar in before.escapingControlCharacters(keepingTabs: true).unicodeScalars {
            blanks.append(scalar == "\t" ? UInt8(ascii: "\t") : UInt8(ascii: " "))
        }
        let visible = String(decoding: blanks, as: UTF8.self)
        return [
            "\(number) | \(text)",
            "\(gutter) | \(visible)\(highlight("^", .caret))",
        ]
    }

    /// `scalars` as text, encoded to UTF-8 in one buffer (a `String.UnicodeScalarView` built from
    /// them went through an array of `UInt32`, ≈ 6 k instructions a short line).
    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
        return String(decoding: bytes, as: UTF8.self)
    }
}
