import MilepostYAML

/// A manifest's path and bytes, kept so diagnostics can quote the offending line.
public struct ManifestSource: Sendable {
    public let path: String
    public let bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Reads the file at `path` (a path's text, see `PathText`), refusing more than `maxBytes`.
    /// - throws: `ManifestError.unreadable` (missing, unreadable, a directory) or `.invalid` with one
    ///   unlocated error (not a regular file, too large).
    static func read(path: String, maxBytes: Int) throws(ManifestError) -> ManifestSource {
        do {
            return ManifestSource(path: path, bytes: try YAMLSource.read(path: path, maxBytes: maxBytes))
        } catch {
            switch error {
            case .unreadable(_, let reason):
                throw .unreadable(path: path, reason: reason)
            case .refused(_, let reason):
                throw .invalid([Diagnostic(.error, reason, file: path, at: nil)], source: ManifestSource(path: path, bytes: []))
            }
        }
    }

    /// The directory of `path` (`.` for a bare file name).
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The text of 1-based line `number`, without its line break; nil past the end. Lines end where
    /// diagnostics' line numbers say (`\n`, `\r`, `\r\n`, NEL, LS, PS).
    public func line(_ number: Int) -> String? {
        YAMLSource.line(number, in: bytes)
    }
}
