/// A run told not to start a store's history (`RunOptions.createsStore` false) found nothing stored:
/// the store is new — or named wrongly. Nothing was created.
public struct NewStoreRefused: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the store was looked for (never with a password).
    public let location: String

    public var description: String {
        "nothing is stored in \(location): it is a new store, and this run may only use an existing one; nothing was created"
    }
}
