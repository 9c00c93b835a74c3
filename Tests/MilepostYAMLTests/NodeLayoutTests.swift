@testable import MilepostYAML
import Testing

/// A composed node is 16 bytes (issue 32): its kind, style and tag share a word with its column,
/// and a column too large for the bits left is kept aside. Every combination must come back intact.
@Suite struct NodeLayoutTests {
    @Test func nodesAreSixteenBytes() {
        #expect(MemoryLayout<RawNode>.stride == 16)
    }

    @Test func kindStyleTagAndColumnComeBackAsStored() {
        let kinds: [YAMLNode.Kind] = [.scalar, .sequence, .mapping]
        let styles: [YAMLNode.ScalarStyle] = [.plain, .singleQuoted, .doubleQuoted, .literal, .folded]
        let tags: [CoreTag] = [.none, .nonSpecific, .str, .int, .float, .bool, .null, .seq, .map]
        for kind in kinds {
            for style in styles {
                for tag in tags {
                    for column in [0, 1, 2, 1000, RawNode.longColumn - 1, RawNode.longColumn] as [UInt32] {
                        var node = RawNode(kind: kind, style: style, tag: .map, line: 7, column: column, start: 3, count: 4)
                        #expect(node.tag == .map)
                        node.tag = .nonSpecific
                        node.tag = tag  // over another tag: the old bits must go
                        #expect(node.kind == kind && node.style == style && node.tag == tag)
                        #expect(node.column == column && node.line == 7 && node.start == 3 && node.count == 4)
                    }
                }
            }
        }
    }

    /// A line longer than the node's 23 bits of column: the location is still exact.
    @Test func aColumnBeyondTheNodesBitsIsKeptAside() throws {
        let padding = Int(RawNode.longColumn) + 10
        let text = "key: [" + String(repeating: " ", count: padding) + "far, 'near']\nnext: 1\n"
        let limits = YAMLLimits(maxDocumentBytes: text.utf8.count + 1)
        let root = try #require(try YAMLDocument.parse(Array(text.utf8), limits: limits).root)
        let elements = try #require(root["key"]?.elements)
        #expect(elements.map(\.location) == [
            SourceLocation(line: 1, column: 7 + padding), SourceLocation(line: 1, column: 7 + padding + 5),
        ])
        #expect(elements.map(\.scalar) == ["far", "near"])
        #expect(root["next"]?.location == SourceLocation(line: 2, column: 7))
    }
}
