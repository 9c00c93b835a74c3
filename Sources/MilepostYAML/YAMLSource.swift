import MilepostSystem

/// Reads a YAML file safely: regular files only, never more than the size cap + 1 bytes.
public enum YAMLSource {
    /// Why a file was not read; `reason` in words (for a failed call, `strerror`'s text).
    public enum ReadError: Error, Sendable, Hashable {
        /// Missing, unreadable, or a directory (exit 66 in the CLI).
        case unreadable(path: String, reason: String)
        /// Not a regular file (FIFO, device) or larger than the cap (exit 65 in the CLI).
        case refused(path: String, reason: String)
    }

    /// The bytes of the regular file at `path`. Opens without blocking (a FIFO cannot stall it),
    /// refuses anything that is not a regular file before reading, and refuses a file larger than
    /// `maxBytes`, whether `fstat` says so or the file grows while being read. `path` is a path's
    /// text: a byte that is not UTF-8 is one scalar of U+10FF80…U+10FFFF (see `Manifest.load(path:)`).
    public static func read(path: String, maxBytes: Int) throws(ReadError) -> [UInt8] {
        do {
            return try RegularFileReader.contents(path: PathText.filePath(path), maxBytes: maxBytes)
        } catch {
            switch error {
            case .unreadable, .directory: throw .unreadable(path: error.path, reason: error.reason)
            case .refused: throw .refused(path: error.path, reason: error.reason)
            }
        }
    }
}
