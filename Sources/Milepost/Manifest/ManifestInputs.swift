public import MilepostYAML
import MilepostSystem

extension ManifestDigest {
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
        let directory = PathText.directory(of: path)
        return .of(manifest: manifest, envFile: envFileBytes, files: files.map { DefinitionFile(name: $0, directory: directory) })
    }
}
