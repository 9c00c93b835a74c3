import MilepostSystem
import MilepostYAML
import Synchronization

/// A manifest's path and bytes, kept so diagnostics can quote the offending line.
public struct ManifestSource: Sendable {
    public let path: String
    public let bytes: [UInt8]
    /// Where `bytes`' lines are, found when a line is first asked for (a manifest that is only run
    /// never is), then shared by every copy of this source.
    private let lines: LineIndex

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        lines = LineIndex()
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
    public var directory: String { PathText.directory(of: path) }

    /// The text of 1-based line `number`, without its line break; nil past the end. Lines end where
    /// diagnostics' line numbers say (`\n`, `\r`, `\r\n`, NEL, LS, PS). The first call reads the
    /// whole source once (`SourceLines`); later ones take the line from that index.
    public func line(_ number: Int) -> String? {
        lines.line(number, of: bytes)
    }

    /// The scalars of line `number`, as `line(_:)` gives its text: decoded the first time a
    /// diagnostic quotes the line, then kept, so that the many findings of one long line (a
    /// minified manifest, a fuzzer's input) each cost their excerpt's window, not the line.
    func scalars(ofLine number: Int) -> [Unicode.Scalar]? {
        lines.scalars(ofLine: number, of: bytes)
    }

    /// A source's `SourceLines`, built by the first caller, and the scalars of the lines quoted so far.
    private final class LineIndex: Sendable {
        private struct Built {
            var lines: SourceLines
            var quoted: [Int: [Unicode.Scalar]] = [:]
        }

        private let index = Mutex<Built?>(nil)

        func line(_ number: Int, of bytes: [UInt8]) -> String? {
            index.withLock { Self.built(&$0, bytes).lines.line(number) }
        }

        func scalars(ofLine number: Int, of bytes: [UInt8]) -> [Unicode.Scalar]? {
            index.withLock { index in
                if let kept = index?.quoted[number] { return kept }
                guard let line = Self.built(&index, bytes).lines.line(number) else { return nil }
                let scalars = Array(line.unicodeScalars)
                index?.quoted[number] = scalars
                return scalars
            }
        }

        private static func built(_ index: inout Built?, _ bytes: [UInt8]) -> Built {
            if let index { return index }
            let built = Built(lines: SourceLines(bytes))
            index = built
            return built
        }
    }
}
