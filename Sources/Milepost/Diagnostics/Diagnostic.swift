public import MilepostYAML

/// One finding about a manifest, located like a compiler diagnostic.
public struct Diagnostic: Sendable, Hashable {
    public enum Severity: String, Sendable, Hashable, Codable {
        case error, warning
    }

    public var severity: Severity
    public var message: String
    /// The manifest's path as given.
    public var file: String
    public var location: SourceLocation?
    /// Secondary messages, such as "did you mean 'exec'?" or "first defined here".
    public var notes: [YAMLError.Note]

    public init(
        _ severity: Severity, _ message: String, file: String, at location: SourceLocation?,
        notes: [YAMLError.Note] = []
    ) {
        self.severity = severity
        self.message = message
        self.file = file
        self.location = location
        self.notes = notes
    }

    init(_ error: YAMLError, file: String) {
        self.init(.error, error.message, file: file, at: error.location, notes: error.notes)
    }
}
