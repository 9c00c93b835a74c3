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

    /// The store `spec` names when it reads its state's head synchronously (`StateHeadReading`,
    /// for `PreStart`); nil when it does not.
    func openHeadReader(_ spec: String) throws -> (any StateHeadReading)? {
        let store = try openStore(spec)
        // The stock store first: a cast to a type compares metadata, where the first cast to a
        // protocol scans every conformance record of the binary (0.38 M instructions, 14 % of an
        // up-to-date run; docs/performance.md).
        return store as? FileStore ?? store as? any StateHeadReading
    }
}
