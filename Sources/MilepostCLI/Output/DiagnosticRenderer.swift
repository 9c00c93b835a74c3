import Milepost

/// Prints diagnostics like a compiler: `file:line:col: error: message`, the source line, a caret, notes.
struct DiagnosticRenderer {
    var source: ManifestSource?
    var colored: Bool

    func render(_ diagnostic: Diagnostic) -> String {
        let severity = diagnostic.severity == .error
            ? Terminal.paint("error:", .red, colored: colored) : Terminal.paint("warning:", .yellow, colored: colored)
        let message = diagnostic.message.escapingControlCharacters()
        var lines = ["\(place(diagnostic.file, diagnostic.location.map { ($0.line, $0.column) })) \(severity) \(Terminal.paint(message, .bold, colored: colored))"]
        // Only the manifest's lines are at hand: a finding in another file (the lock file) is not quoted.
        let quotes = source?.path == diagnostic.file
        if let location = diagnostic.location, quotes { lines += excerpt(line: location.line, column: location.column) }
        for note in diagnostic.notes {
            let label = Terminal.paint("note:", .cyan, colored: colored)
            if let location = note.location {
                lines.append("\(place(diagnostic.file, (location.line, location.column))) \(label) \(note.message.escapingControlCharacters())")
                if quotes { lines += excerpt(line: location.line, column: location.column) }
            } else {
                lines.append("\(label) \(note.message.escapingControlCharacters())")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func place(_ file: String, _ location: (line: Int, column: Int)?) -> String {
        let file = file.escapingControlCharacters()
        return location.map { "\(file):\($0.line):\($0.column):" } ?? "\(file):"
    }

    /// The source line `number` quoted, and a caret under `column`.
    private func excerpt(line number: Int, column: Int) -> [String] {
        guard let line = source?.line(number) else { return [] }
        let text = line.escapingControlCharacters(keepingTabs: true)
        let number = String(number)
        let gutter = String(repeating: " ", count: number.count)
        let before = String(String.UnicodeScalarView(line.unicodeScalars.prefix(column - 1)))
        let visible = before.escapingControlCharacters(keepingTabs: true).unicodeScalars.map { $0 == "\t" ? "\t" : " " }.joined()
        return [
            "\(number) | \(text)",
            "\(gutter) | \(visible)\(Terminal.paint("^", .green, colored: colored))",
        ]
    }

    /// GitHub Actions workflow commands: `::error file=F,line=L,col=C::message`.
    static func github(_ diagnostic: Diagnostic) -> String {
        var properties = "file=\(escapeProperty(diagnostic.file))"
        if let location = diagnostic.location { properties += ",line=\(location.line),col=\(location.column)" }
        let notes = diagnostic.notes.map { " (\($0.message))" }.joined()
        return "::\(diagnostic.severity.rawValue) \(properties)::\(escapeData(diagnostic.message + notes))"
    }

    /// A GitHub Actions `::error title=T::message` annotation; `message` may span lines.
    static func githubError(title: String, _ message: String) -> String {
        "::error title=\(escapeProperty(title))::\(escapeData(message))"
    }

    /// GitHub's escaping of a command's data (`%25`, `%0D`, `%0A`); any other control character is
    /// escaped as in text output, so the annotation stays one inert line.
    private static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A").escapingControlCharacters()
    }

    private static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
