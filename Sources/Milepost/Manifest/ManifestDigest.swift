public import MilepostYAML
import MilepostSystem

/// What a plan depends on besides the state, as one digest: the manifest file's bytes, the env
/// file's bytes when one is given (`ManifestVariables.envFile`), and every file a step reads as its
/// definition (`DefinitionFile`), by name and content.
///
/// The state keeps the digest of the manifest a run last planned with and found (or made) up to
/// date (`StoredState.plannedWith`); a run at the stored version whose manifest has that digest is
/// up to date without parsing the manifest (`Runner.upToDate(_:at:manifest:)`, the pre-start fast
/// path). Any other difference, a comment included, makes the run read the manifest and plan.
public struct ManifestDigest: Codable, Sendable, Equatable {
    /// FNV-1a (64 bits, hex) of the inputs.
    public var digest: String
    /// The definition files' names as the manifest gives them (relative to its directory), in
    /// manifest order: the files a later run reads to compute the digest again.
    public var files: [String]

    public init(digest: String, files: [String]) {
        self.digest = digest
        self.files = files
    }

    /// The digest of a manifest's bytes, its env file's (nil: none given) and its definition files.
    static func of(manifest: [UInt8], envFile: [UInt8]?, files: [DefinitionFile]) -> ManifestDigest {
        var hash = FNV1a()
        hash.addField(manifest)
        if let envFile {
            hash.add(CollectionOfOne(1))
            hash.addField(envFile)
        } else {
            hash.add(CollectionOfOne(0))
        }
        for file in files {
            hash.addField(Array(file.name.utf8))
            hash.addField(Array((file.digest ?? "unreadable").utf8))
        }
        return ManifestDigest(digest: hash.hex, files: files.map(\.name))
    }
}

/// Where a manifest and what it depends on are read from, to compute its digest without parsing
/// it (`RunOptions.manifestInputs`, the pre-start fast path).
public struct ManifestInputs: Sendable, Equatable {
    /// The manifest file (a path's text, `PathText`).
    public var path: String
    /// The env file the manifest's variables take values from, if any (`ManifestVariables.environment(envFile:)`).
    public var envFile: String?
    /// The largest manifest read (`ManifestLimits.maxDocumentBytes`).
    public var maxManifestBytes: Int

    public init(path: String, envFile: String? = nil, maxManifestBytes: Int = ManifestLimits.default.maxDocumentBytes) {
        self.path = path
        self.envFile = envFile
        self.maxManifestBytes = maxManifestBytes
    }

    /// The digest of the files as they are now, with the definition files named `files` (those the
    /// state recorded with its digest); nil when the manifest or the env file cannot be read, which
    /// loading the manifest reports.
    public func digest(definitionFiles files: [String]) -> ManifestDigest? {
        guard let manifest = try? RegularFileReader.contents(path: PathText.filePath(path), maxBytes: maxManifestBytes)
        else { return nil }
        var envFileBytes: [UInt8]?
        if let envFile {
            guard let bytes = try? RegularFileReader.contents(
                path: PathText.filePath(envFile), maxBytes: ManifestVariables.maxEnvFileBytes) else { return nil }
            envFileBytes = bytes
        }
        let directory = ManifestSource(path: path, bytes: []).directory
        return .of(manifest: manifest, envFile: envFileBytes, files: files.map { DefinitionFile(name: $0, directory: directory) })
    }
}

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
        let path = ManifestSource.path(name, relativeTo: directory)
        if let bytes = try? RegularFileReader.contents(path: PathText.filePath(path), maxBytes: Self.maxBytes) {
            var hash = FNV1a()
            bytes.withUnsafeBufferPointer { hash.add($0) }
            digest = hash.hex
        } else {
            digest = nil
        }
    }
}
