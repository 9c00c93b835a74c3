/// `validate`'s findings as GitHub-flavoured Markdown, for a job summary or a pull-request comment.
public enum ValidationMarkdown {
    /// A heading with the verdict, then every finding with its line.
    /// - parameters:
    ///   - path: the manifest as the user named it.
    ///   - diagnostics: the findings, errors and warnings.
    ///   - steps: how many steps the manifest has (0 when it is invalid).
    ///   - failing: whether the findings fail validation (errors, or any finding under --strict).
    public static func render(path: String, diagnostics: [Diagnostic], steps: Int, failing: Bool) -> String {
        let errors = diagnostics.count { $0.severity == .error }
        let warnings = diagnostics.count - errors
        let verdict = failing
            ? "❌ \(counted(errors, "error")), \(counted(warnings, "warning"))"
            : "✅ valid, \(counted(steps, "step")), \(counted(warnings, "warning"))"
        var lines = ["### \(path.markdownCode): \(verdict)"]
        if !diagnostics.isEmpty { lines.append("") }
        for diagnostic in diagnostics {
            let place = diagnostic.location.map { "line \($0.line), column \($0.column)" } ?? "the file"
            lines.append("- **\(diagnostic.severity.rawValue)** at \(place): \(diagnostic.message.markdownEscaped)")
            lines += diagnostic.notes.map { "  - \($0.message.markdownEscaped)" }
        }
        return lines.joined(separator: "\n")
    }
}
