import MilepostSystem

// The host store (`Runner.hostStore`): where the `scope: host` steps of this host are recorded,
// beside the fleet's store. A run takes the fleet store's lock first, then the host store's, and
// holds both while it runs steps of either (docs/store.md, "Host steps").
extension Runner {
    /// Refuses a manifest with host steps when this runner has no host store, before any step.
    /// - throws: `HostStoreRequired` naming them.
    func refuseHostStepsWithoutHostStore(_ manifest: Manifest) throws(HostStoreRequired) {
        guard hostStore == nil else { return }
        let steps = manifest.steps.filter { $0.scope == .host }.map(\.id)
        if !steps.isEmpty { throw HostStoreRequired(steps: steps) }
    }

    /// Whether the host store is up to date for the fast path: its head is at `target` and was last
    /// planned with `digest`; true when the run records nothing there.
    func hostUpToDate(_ manifest: Manifest?, at target: Version, digest: ManifestDigest?) async throws -> Bool {
        guard let hostStore, manifest.map(stores.usesHostStore) ?? true else { return true }
        guard let state = try await hostStore.readState() else { return false }
        return upToDate(state.head, at: target, manifest: digest) != nil
    }
}

/// A manifest has `scope: host` steps and the run was given no host store to record them in.
public struct HostStoreRequired: Error, CustomStringConvertible, Sendable {
    /// The host steps, `THRESHOLD/ID`.
    public let steps: [String]

    public var description: String {
        "the manifest has steps that run on every host (scope: host: \(steps.joined(separator: ", "))), and no host store "
            + "was given to record them: pass --host-store DIR (or set MILEPOST_HOST_STORE), a directory on this host"
    }
}

/// A run, plan, status or resolve was given a host store that is its fleet store, spelled otherwise
/// (`--host-store` naming `--store`'s directory through `./`, a link, another relative path).
public struct HostStoreIsFleetStore: Error, CustomStringConvertible, Sendable {
    /// The host store as given.
    public let hostStore: String
    /// The fleet store as given.
    public let store: String

    public var description: String {
        "the host store \(hostStore) is the fleet store \(store): host steps are recorded in a store of each host's own, "
            + "beside the fleet's (a directory on the host)"
    }
}
