@testable import MilepostYAML
import Testing

/// `SourceLines` gives each line's text as the locations of diagnostics number them, from one
/// pass over the bytes.
@Suite struct SourceLinesTests {
    static let cases: [(bytes: [UInt8], lines: [String])] = [
        (Array("a\rb\r\nc\u{85}d\u{2028}e\u{2029}f\n\ng".utf8), ["a", "b", "c", "d", "e", "f", "", "g"]),
        (Array("a\n".utf8), ["a"]),
        (Array("a\r".utf8), ["a"]),
        (Array("\n\n".utf8), ["", ""]),
        ([], []),
        ([0xEF, 0xBB, 0xBF] + Array("bom\nnext".utf8), ["bom", "next"]),
        (Array("é: ü\n  – x".utf8), ["é: ü", "  – x"]),
        // The lines stop at the first byte that is not UTF-8, as locations do.
        (Array("a\nb".utf8) + [0xFF] + Array("c\nd".utf8), ["a", "b"]),
        (Array("a\n".utf8) + [0xFF] + Array("\nd".utf8), ["a"]),
    ]

    @Test(arguments: cases)
    func linesEndWhereLocationsDo(bytes: [UInt8], lines: [String]) {
        let index = SourceLines(bytes)
        let expected: [String?] = [nil] + lines + [nil]
        #expect((0...lines.count + 1).map { index.line($0) } == expected)
    }

    /// The location of a byte: its scalar's line and column, the next scalar's inside a scalar,
    /// the location after the last scalar past the text (the next line's start after a break).
    static let locations: [(bytes: [UInt8], offset: Int, line: Int, column: Int)] = [
        (Array("ab\ncd".utf8), 0, 1, 1),
        (Array("ab\ncd".utf8), 2, 1, 3),  // the `\n`
        (Array("ab\ncd".utf8), 3, 2, 1),
        (Array("ab\ncd".utf8), 9, 2, 3),  // past the end
        (Array("a\r\nb".utf8), 1, 1, 2),  // `\r`
        (Array("a\r\nb".utf8), 2, 1, 2),  // its `\n`: one break, one place
        (Array("a\r\nb".utf8), 3, 2, 1),
        (Array("a\rb".utf8), 2, 2, 1),
        (Array("a\r".utf8), 2, 2, 1),
        (Array("a\n".utf8), 5, 2, 1),
        (Array("é\u{2028}x".utf8), 1, 1, 2),  // inside `é`: the next scalar
        (Array("é\u{2028}x".utf8), 5, 2, 1),
        ([0xEF, 0xBB, 0xBF] + Array("a".utf8), 0, 1, 1),
        ([0xEF, 0xBB, 0xBF] + Array("a".utf8), 4, 1, 2),
        ([], 0, 1, 1),
        (Array("ab".utf8) + [0xFF] + Array("c".utf8), 2, 1, 3),  // the byte that is not UTF-8
        (Array("ab".utf8) + [0xFF] + Array("c".utf8), 3, 1, 3),  // and past it
        (Array("a\r".utf8) + [0xFF], 2, 2, 1),
    ]

    @Test(arguments: locations)
    func locationOfAByte(bytes: [UInt8], offset: Int, line: Int, column: Int) {
        #expect(SourceLines(bytes).location(ofByte: offset) == SourceLocation(line: line, column: column))
    }

    @Test func scalarAtALocation() {
        let lines = SourceLines(Array("a\tb\r\n\tc".utf8))
        #expect(lines.scalar(at: SourceLocation(line: 1, column: 2)) == "\t")
        #expect(lines.scalar(at: SourceLocation(line: 1, column: 4)) == "\r")
        #expect(lines.scalar(at: SourceLocation(line: 2, column: 1)) == "\t")
        #expect(lines.scalar(at: SourceLocation(line: 2, column: 3)) == nil)
        #expect(lines.scalar(at: SourceLocation(line: 3, column: 1)) == nil)
        #expect(lines.scalar(at: SourceLocation(line: 1, column: 0)) == nil)
    }

    /// Every byte's location is on a line that has that many scalars before its column.
    @Test func everyLocationIsOnItsLine() {
        let bytes = Array("key: a\r\nnext:\r  – é\u{2028}x\u{85}\n\ty: 'z'\n".utf8)
        let lines = SourceLines(bytes)
        for offset in bytes.indices where bytes[offset] & 0xC0 != 0x80 {
            let location = lines.location(ofByte: offset)
            let line = lines.line(location.line) ?? ""
            #expect(line.unicodeScalars.count >= location.column - 1, "byte \(offset) at \(location)")
        }
    }
}
