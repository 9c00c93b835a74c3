/// A revert that started and has not yet stored its target (`StoredState.reverting`): some steps
/// above `to` may already be reverted while the stored version is still the one it started from.
/// Until a `revert` to `to` (or lower) finishes, a `run` refuses and the pre-start fast path does
/// not take the store as up to date.
public struct UnfinishedRevert: Codable, Sendable, Equatable {
    /// The version the revert goes to.
    public var to: Version
    /// The run that started it.
    public var run: String
    /// When it started.
    public var since: Timestamp

    public init(to: Version, run: String, since: Timestamp) {
        self.to = to
        self.run = run
        self.since = since
    }
}
