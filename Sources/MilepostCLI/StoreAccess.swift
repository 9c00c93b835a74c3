import Milepost

/// How the application opens a store: its opener and the URL schemes it declares. The pre-start
/// fast path needs only this (`PreStart`); every command gets it in its `CommandContext`.
struct StoreAccess: Sendable {
    /// Opens the store a `--store` value names; only called through `openStore(_:)`.
    var opener: MilepostCLI.StoreOpener
    /// The URL schemes `opener` opens (`postgres`, `postgresql` for the stock binary); a value with any
    /// other scheme is refused, never opened as a directory (`StoreSpec`).
    var schemes: [String] = []

    /// The store `spec` names, after `StoreSpec.check`: a URL of a scheme the opener does not declare
    /// is a usage error (64), whatever the opener would have made of it.
    func openStore(_ spec: String) throws -> any MilepostStore {
        try StoreSpec.check(spec, schemes: schemes)
        return try opener(spec)
    }
}
