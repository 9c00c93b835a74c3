/// Why a manifest cannot be used.
public enum ManifestError: Error, Sendable {
    /// Missing or unreadable (exit 66).
    case unreadable(path: String, reason: String)
    /// Read, but wrong: every error found (and any warnings), in source order (exit 65).
    case invalid([Diagnostic], source: ManifestSource)
}
