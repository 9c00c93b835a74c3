/// The store holds another application's state. Two applications on one store would each read
/// the other's version: the second would skip its own steps below it, or be told it is up to
/// date. Refused wherever a manifest meets the state (`run`, `run --dry-run`, `plan`, `status`).
public struct OtherApplicationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the store is.
    public let store: String
    /// The `app` the state records.
    public let stored: String
    /// The manifest's `app`.
    public let manifest: String

    public var description: String {
        "the store \(store) holds the state of app '\(stored)', and this manifest is app '\(manifest)': "
            + "give each application its own store"
    }

    /// Throws when both name an app and the names differ; a state or manifest without `app` matches any.
    static func check(_ manifest: Manifest, _ state: StoredState?, store: String) throws(OtherApplicationError) {
        guard let stored = state?.app, let app = manifest.app, stored != app else { return }
        throw OtherApplicationError(store: store, stored: stored, manifest: app)
    }
}
