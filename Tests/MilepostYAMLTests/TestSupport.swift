import MilepostYAML
import Testing

/// Parses `text`, recording an issue (and returning nil) if it fails.
func parse(_ text: String, limits: YAMLLimits = .default, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> YAMLNode? {
    do {
        return try YAMLDocument.parse(Array(text.utf8), limits: limits).root
    } catch {
        Issue.record("unexpected errors: \(error.errors)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The errors parsing `bytes` throws; records an issue if it succeeds.
func parseErrors(_ bytes: [UInt8], limits: YAMLLimits = .default, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [YAMLError] {
    do {
        _ = try YAMLDocument.parse(bytes, limits: limits)
        Issue.record("parsing succeeded", sourceLocation: sourceLocation)
        return []
    } catch {
        return error.errors
    }
}

func parseErrors(_ text: String, limits: YAMLLimits = .default, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [YAMLError] {
    parseErrors(Array(text.utf8), limits: limits, sourceLocation: sourceLocation)
}

/// `line:column`, short for tests.
func at(_ line: Int, _ column: Int) -> MilepostYAML.SourceLocation {
    MilepostYAML.SourceLocation(line: line, column: column)
}
