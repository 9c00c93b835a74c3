import MilepostYAML
import Testing

@Suite struct StructureTests {
    @Test func secondDocumentIsLocatedAtItsStart() {
        let errors = parseErrors("a: 1\n---\nb: 2\n")
        #expect(errors == [YAMLError("a manifest must be exactly one YAML document; a second one starts here", at: at(2, 1))])
    }

    @Test func explicitSingleDocumentIsFine() throws {
        let root = try #require(parse("---\na: 1\n...\n"))
        #expect(root["a"]?.coreValue == .int(1))
    }

    @Test func duplicateKeysPointAtTheDuplicate() {
        let errors = parseErrors("migrations:\n  2.1: [a]\n  '2.1': [b]\nname: x\nname: y\n")
        #expect(errors == [
            YAMLError("duplicate key '2.1'", at: at(3, 3), notes: [YAMLError.Note("first defined here", at: at(2, 3))]),
            YAMLError("duplicate key 'name'", at: at(5, 1), notes: [YAMLError.Note("first defined here", at: at(4, 1))]),
        ])
    }

    @Test func duplicateKeysInNestedFlowMappings() {
        let errors = parseErrors("steps:\n  - {b: 1, a: 2, b: 3, a: 4}\n")
        #expect(errors.map(\.description) == ["2:18: duplicate key 'b'", "2:24: duplicate key 'a'"])
        #expect(errors.map { $0.notes.first?.location } == [at(2, 6), at(2, 12)])
    }

    /// A mapping of up to 16 keys is checked key by key, a larger one by sorting its keys: the
    /// same errors either way, each duplicate noting the first definition.
    @Test(arguments: [3, 13, 14, 40])
    func duplicateKeysOfMappingsSmallAndLarge(keys: Int) {
        let lines = (0..<keys).map { "k\($0): 1" } + ["k1: 2", "k0: 3", "k1: 4"]
        let errors = parseErrors(lines.joined(separator: "\n") + "\n")
        #expect(errors == [
            YAMLError("duplicate key 'k1'", at: at(keys + 1, 1), notes: [YAMLError.Note("first defined here", at: at(2, 1))]),
            YAMLError("duplicate key 'k0'", at: at(keys + 2, 1), notes: [YAMLError.Note("first defined here", at: at(1, 1))]),
            YAMLError("duplicate key 'k1'", at: at(keys + 3, 1), notes: [YAMLError.Note("first defined here", at: at(2, 1))]),
        ])
    }

    /// An alias key is its anchor's node, written earlier: the key written out is the duplicate.
    @Test func anAliasKeyIsTheFirstDefinition() {
        let errors = parseErrors("a: &k key\nm: {key: 1, *k : 2}\n")
        #expect(errors == [
            YAMLError("duplicate key 'key'", at: at(2, 5), notes: [YAMLError.Note("first defined here", at: at(1, 4))]),
        ])
    }

    @Test func versionKeysAreNotDuplicates() throws {
        let root = try #require(parse("2.1: a\n2.10: b\n2.100: c\n"))
        #expect(root.pairs.count == 3)
    }

    @Test func complexKeysAreRefused() {
        let errors = parseErrors("? [a, b]\n: 1\n{x: 1}: 2\n")
        #expect(errors == [
            YAMLError("a mapping key must be a scalar, not a sequence", at: at(1, 3)),
            YAMLError("a mapping key must be a scalar, not a mapping", at: at(3, 1)),
        ])
    }

    @Test func unknownTagsAreRefusedByName() {
        let errors = parseErrors("a: !foo x\nb: !!binary aGk=\nc: !!python/object:os.system {}\n")
        let allowed = "only '!' and the core tags !!str, !!int, !!float, !!bool, !!null, !!seq and !!map are allowed"
        #expect(errors == [
            YAMLError("unsupported tag '!foo'; \(allowed)", at: at(1, 4)),
            YAMLError("unsupported tag '!!binary'; \(allowed)", at: at(2, 4)),
            YAMLError("unsupported tag '!!python/object:os.system'; \(allowed)", at: at(3, 4)),
        ])
    }

    @Test func tagsMustFitTheirNode() {
        let errors = parseErrors("a: !!int abc\nb: !!map [1]\nc: !!str {k: v}\nd: !!seq [ok]\ne: !!bool yes\n")
        #expect(errors == [
            YAMLError("'abc' is not a valid !!int", at: at(1, 4)),
            YAMLError("tag '!!map' cannot be applied to a sequence", at: at(2, 4)),
            YAMLError("tag '!!str' cannot be applied to a mapping", at: at(3, 4)),
            YAMLError("'yes' is not a valid !!bool", at: at(5, 4)),
        ])
    }
}
