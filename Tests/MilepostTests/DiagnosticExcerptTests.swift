@testable import Milepost
import MilepostYAML
import Testing

/// A diagnostic quotes its source line with a caret under the column; a long line is quoted as a
/// window around the column (`Diagnostic.excerptWidth`), so that many findings on one long line
/// cost each a window, not the line.
@Suite struct DiagnosticExcerptTests {
    static func rendered(_ line: String, column: Int) -> [String] {
        let source = ManifestSource(path: "m.yaml", bytes: Array(line.utf8))
        let diagnostic = Diagnostic(.error, "bad", file: "m.yaml", at: SourceLocation(line: 1, column: column))
        return diagnostic.rendered(source: source).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aShortLineIsQuotedWhole() {
        #expect(Self.rendered("key: value", column: 6) == ["m.yaml:1:6: error: bad", "1 | key: value", "  |      ^"])
    }

    @Test(arguments: [1, 50, 500, 999, 1000, 1001])
    func aLongLineIsQuotedAroundTheColumnWithTheCaretUnderIt(column: Int) throws {
        // 1,000 scalars: a digit, then the column's own mark `X`, and `é` (two UTF-8 bytes, one scalar) elsewhere.
        let scalars = (1...1000).map { $0 == column ? "X" : ($0 % 7 == 0 ? "é" : String($0 % 10)) }
        let lines = Self.rendered(scalars.joined(), column: column)
        let quoted = Array(lines[1].dropFirst(4).unicodeScalars)
        let caret = Array(lines[2].dropFirst(4).unicodeScalars)
        #expect(quoted.count <= Diagnostic.excerptWidth + 2)
        #expect(caret.last == "^")
        if column <= 1000 { #expect(quoted[caret.count - 1] == "X") }
        #expect((quoted.first == "…") == (column > Diagnostic.excerptWidth / 2 + 1))
        #expect((quoted.last == "…") == (column < 1000 - Diagnostic.excerptWidth / 2))
    }
}
