/// Parameters of a step that reads files as its definition, such as the built-in `sql` step's
/// `file:`: what the step does is in those files as much as in its manifest entry. Their contents
/// are part of the step's fingerprint (so `repeat: on-change` and `status` see a changed file,
/// and `milepost.lock` locks it) and of the manifest's digest (`ManifestDigest`, the pre-start
/// fast path). Read when the manifest is loaded, relative to its directory unless absolute.
public protocol DefinitionFileParameters: Sendable {
    /// The files the step reads as its definition, as the manifest names them.
    var definitionFiles: [String] { get }
}
