import Milepost
import MilepostSystem

/// Prints diagnostics like a compiler (`file:line:col: error: message`, the source line, a caret,
/// notes) through the library's `Diagnostic.rendered(source:highlight:)`, coloured on a terminal.
struct DiagnosticRenderer {
    var source: ManifestSource?
    var colored: Bool

    /// The library's rendering (`Diagnostic.rendered(source:)`), coloured on a terminal.
    func render(_ diagnostic: Diagnostic) -> String {
        diagnostic.rendered(source: source) { text, part in
            switch part {
            case .error: Terminal.paint(text, .red, colored: colored)
            case .warning: Terminal.paint(text, .yellow, colored: colored)
            case .message: Terminal.paint(text, .bold, colored: colored)
            case .note: Terminal.paint(text, .cyan, colored: colored)
            case .caret: Terminal.paint(text, .green, colored: colored)
            }
        }
    }

    /// GitHub Actions workflow commands: `::error file=F,line=L,col=C::message`.
    static func github(_ diagnostic: Diagnostic) -> String {
        var properties = "file=\(escapeProperty(diagnostic.file))"
        if let location = diagnostic.location { properties += ",line=\(location.line),col=\(location.column)" }
        let notes = diagnostic.notes.map { " (\($0.message))" }.joined()
        return "::\(diagnostic.severity.rawValue) \(properties)::\(escapeData(diagnostic.message + notes))"
    }

    /// A GitHub Actions `::error file=F,line=L,title=T::message` annotation (the file and line
    /// when known: GitHub shows it on that line of the diff); `message` may span lines.
    static func githubError(title: String, file: String? = nil, line: Int? = nil, _ message: String) -> String {
        githubAnnotation(.error, title: title, file: file, line: line, message)
    }

    /// A GitHub Actions annotation of `level` (`::warning file=F,line=L,title=T::message`), at
    /// `line` of `file` when they are known; `message` may span lines.
    static func githubAnnotation(
        _ level: GitHubAnnotation, title: String, file: String? = nil, line: Int? = nil, _ message: String
    ) -> String {
        let location = (file.map { "file=\(escapeProperty($0))," } ?? "") + (file != nil ? line.map { "line=\($0)," } ?? "" : "")
        return "::\(level.rawValue) \(location)title=\(escapeProperty(title))::\(escapeData(message))"
    }

    /// The levels of GitHub Actions annotations.
    enum GitHubAnnotation: String {
        case error, warning, notice
    }

    /// GitHub's escaping of a command's data (`%25`, `%0D`, `%0A`); any other control character is
    /// escaped as in text output, so the annotation stays one inert line.
    private static func escapeData(_ text: String) -> String {
        text.replacing(scalar: "%", with: "%25").replacing(scalar: "\r", with: "%0D")
            .replacing(scalar: "\n", with: "%0A").escapingControlCharacters()
    }

    private static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacing(scalar: ":", with: "%3A").replacing(scalar: ",", with: "%2C")
    }
}
