import MilepostSystem

/// A file a step reads as its definition (`DefinitionFileParameters`, the `sql` step's `file:`):
/// its name as the manifest gives it, and the digest of its bytes when the manifest was read.
public struct DefinitionFile: Sendable, Equatable {
    /// The name as the manifest gives it: relative to the manifest's directory unless absolute.
    public let name: String
    /// FNV-1a (64 bits, hex) of its bytes; nil when it could not be read (not a regular file,
    /// missing, over `maxBytes`): the step reports that when it runs.
    public let digest: String?

    /// The largest definition file read for a digest (64 MiB).
    public static let maxBytes = 64 << 20

    /// Reads the file `name` names, relative to `directory` (the manifest's).
    init(name: String, directory: String) {
        self.name = name
        digest = Self.digest(path: ManifestRelativePath.resolve(name, in: directory))
    }

    /// FNV-1a of the bytes of the file at `path` (at most `maxBytes`); nil when it cannot be read.
    static func digest(path: String) -> String? {
        guard let bytes = try? RegularFileReader.contents(path: PathText.filePath(path), maxBytes: maxBytes) else { return nil }
        var hash = FNV1a()
        bytes.withUnsafeBufferPointer { hash.add($0) }
        return hash.hex
    }
}
