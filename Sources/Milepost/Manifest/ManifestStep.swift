public import MilepostYAML

/// One step of a manifest, resolved against the registry.
public struct ManifestStep: Sendable {
    /// `THRESHOLD/ID`, e.g. `2.10/reindex-dailys`.
    public let id: String
    /// The threshold as a version, and as written.
    public let threshold: Version
    /// The registered step name.
    public let name: String
    /// The step's `description:`, or the registered description.
    public let description: String?
    /// Per-attempt time limit (`timeout:`), if any.
    public let timeout: Duration?
    /// Extra attempts after a failure (`retries:`).
    public let retries: Int
    /// Safe to run again after an interruption: `idempotent: true` in the manifest or at registration.
    public let idempotent: Bool
    /// Where the step is written in the manifest.
    public let location: SourceLocation
    /// A digest of the entry (name, parameters) and the registered revision; `status` compares it
    /// with the one recorded when the step ran.
    public let fingerprint: String

    let definition: StepDefinition
    let parameters: any Sendable
}
