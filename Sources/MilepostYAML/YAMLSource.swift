// CONTRACT STUB — implemented by the YAML work package.
/// Reads a YAML file safely: regular files only, never more than the size cap + 1 bytes.
public enum YAMLSource {
    public enum ReadError: Error, Sendable, Hashable {
        /// Missing, unreadable, or a directory (exit 66 in the CLI).
        case unreadable(path: String, reason: String)
        /// Not a regular file (FIFO, device) or larger than the cap (exit 65 in the CLI).
        case refused(path: String, reason: String)
    }

    public static func read(path: String, maxBytes: Int) throws(ReadError) -> [UInt8] {
        fatalError("unimplemented")
    }
}
