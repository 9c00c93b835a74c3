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
}
