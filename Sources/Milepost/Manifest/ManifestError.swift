public import FoundationEssentials

/// Why a manifest cannot be used.
public enum ManifestError: Error, Sendable {
    /// Missing or unreadable (exit 66).
    case unreadable(path: String, reason: String)
    /// Read, but wrong: every error found (and any warnings), in source order (exit 65).
    case invalid([Diagnostic], source: ManifestSource)
}

extension ManifestError: CustomStringConvertible, LocalizedError {
    /// What `milepost` prints for it: each diagnostic compiler-style with the source line and a
    /// caret (`Diagnostic.rendered(source:)`), then `PATH is invalid (N errors)`; or why the file
    /// cannot be read.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the manifest \(path): \(reason)".escapingControlCharacters()
        case .invalid(let diagnostics, let source):
            return (diagnostics.map { $0.rendered(source: source) } + [Self.summary(diagnostics, source: source)])
                .joined(separator: "\n")
        }
    }

    public var errorDescription: String? { description }

    /// `PATH is invalid (N errors)`.
    package static func summary(_ diagnostics: [Diagnostic], source: ManifestSource) -> String {
        "\(source.path.escapingControlCharacters()) is invalid (\(counted(diagnostics.filter { $0.severity == .error }.count, "error")))"
    }
}
