/// A problem found while reading YAML: what, where, and optionally a related place
/// ("first defined at 2:1").
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A secondary message pointing at another place in the same source.
    public struct Note: Sendable, Hashable {
        public var message: String
        public var location: SourceLocation?

        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    public var message: String
    public var location: SourceLocation?
    public var notes: [Note]

    public init(_ message: String, at location: SourceLocation?, notes: [Note] = []) {
        self.message = message
        self.location = location
        self.notes = notes
    }

    public var description: String {
        location.map { "\($0): \(message)" } ?? message
    }
}
