/// Where a step's record is kept (`scope:`): once for the fleet, in the store every replica shares,
/// or once on every host, in that host's own store (`--host-store`).
public enum StepScope: String, Sendable, Codable, CaseIterable {
    /// The default: runs once for the fleet, recorded in `--store`.
    case fleet
    /// Runs once on every host (rewrite a local file, rebuild a host cache), recorded in the host
    /// store; a host that joins later runs the host steps up to the fleet's version.
    case host
}
