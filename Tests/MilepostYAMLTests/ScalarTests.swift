import MilepostYAML
import Testing

@Suite struct ScalarTests {
    @Test func plainScalarsKeepTheirText() throws {
        let root = try #require(parse("2.10: a\n2.1: b\nflag: no\nswitch: on\nmask: 0x1F\n"))
        let keys = root.pairs.map { $0.key.scalar }
        #expect(keys == ["2.10", "2.1", "flag", "switch", "mask"])
        #expect(root.pairs.map { $0.value.scalar } == ["a", "b", "no", "on", "0x1F"])
        #expect(root["flag"]?.coreValue == .string("no"))
        #expect(root["mask"]?.coreValue == .int(31))
        #expect(root.pairs[0].key.coreValue == .float(2.1))
    }

    @Test(arguments: [
        ("a: plain", YAMLNode.ScalarStyle.plain, "plain"),
        ("a: 'single ''quoted'''", .singleQuoted, "single 'quoted'"),
        ("a: \"double\\tquoted\\u00e9\"", .doubleQuoted, "double\tquotedé"),
        ("a: |\n  line one\n  line two\n", .literal, "line one\nline two\n"),
        ("a: >\n  folded\n  text\n", .folded, "folded text\n"),
    ])
    func styles(source: String, style: YAMLNode.ScalarStyle, value: String) throws {
        let node = try #require(parse(source)?["a"])
        #expect(node.kind == .scalar)
        #expect(node.scalarStyle == style)
        #expect(node.scalar == value)
        #expect(node.elements.isEmpty && node.pairs.isEmpty)
    }

    @Test func collectionsHaveNoScalar() throws {
        let root = try #require(parse("s: [1, 2]\nm: {k: v}\n"))
        #expect(root.kind == .mapping)
        #expect(root.scalar == nil && root.scalarStyle == nil && root.coreValue == nil)
        #expect(root["s"]?.kind == .sequence)
        #expect(root["s"]?.elements.map(\.scalar) == ["1", "2"])
        #expect(root["m"]?.pairs.map { "\($0.key.scalar!)=\($0.value.scalar!)" } == ["k=v"])
        #expect(root["missing"] == nil)
        #expect(root["s"]?["k"] == nil)
    }

    @Test func locationsAreOneBasedAndCountScalars() throws {
        let root = try #require(parse("é: ü😀 x\nname:\n  - 'q'\n  - {k: v}\n"))
        #expect(root.location == at(1, 1))
        let pairs = root.pairs
        #expect(pairs[0].key.location == at(1, 1))
        #expect(pairs[0].value.location == at(1, 4))
        #expect(pairs[1].key.location == at(2, 1))
        #expect(pairs[1].value.location == at(3, 3))
        let elements = pairs[1].value.elements
        #expect(elements[0].location == at(3, 5))
        #expect(elements[1].location == at(4, 5))
        #expect(elements[1].pairs[0].value.location == at(4, 9))
    }

    @Test func locationAfterEmojiInFlowSequence() throws {
        let root = try #require(parse("[😀😀, x]"))
        #expect(root.elements[1].location == at(1, 6))
    }

    @Test func tagsAreReportedInShorthand() throws {
        let root = try #require(parse("a: !!str 5\nb: ! 6\nc: !!int \"7\"\nd: !<tag:yaml.org,2002:float> 1\ne: 8\n"))
        #expect(root["a"]?.tag == "!!str")
        #expect(root["a"]?.coreValue == .string("5"))
        #expect(root["b"]?.tag == "!")
        #expect(root["b"]?.coreValue == .string("6"))
        #expect(root["c"]?.coreValue == .int(7))
        #expect(root["d"]?.tag == "!!float")
        #expect(root["d"]?.coreValue == .float(1))
        #expect(root["e"]?.tag == nil)
    }

    @Test func emptyStreamHasNoRoot() throws {
        #expect(try YAMLDocument.parse([]).root == nil)
        #expect(try YAMLDocument.parse(Array("# only a comment\n".utf8)).root == nil)
        let explicit = try #require(parse("---\n"))
        #expect(explicit.coreValue == .null)
    }
}
