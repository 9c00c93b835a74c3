@testable import MilepostYAML
import Testing

/// A composed document's scalars point into the source when written verbatim, and are copied otherwise
/// (issue 32: the composer no longer keeps a second copy of most of the document's text).
@Suite struct ScalarBytesTests {
    private func storage(_ text: String) throws -> (YAMLStorage, YAMLNode) {
        let root = try #require(try YAMLDocument.parse(Array(text.utf8)).root)
        return (root.storage, root)
    }

    @Test func verbatimScalarsAreNotCopied() throws {
        let (storage, root) = try storage("plain: value\n'single': 'quoted'\n\"double\": \"quoted too\"\nempty:\n")
        #expect(storage.scalars.copied.isEmpty)
        #expect(root.pairs.map { $0.key.scalar } == ["plain", "single", "double", "empty"])
        #expect(root.pairs.map { $0.value.scalar } == ["value", "quoted", "quoted too", ""])
    }

    @Test func rewrittenScalarsAreCopied() throws {
        let (storage, root) = try storage("escaped: \"a\\tb\"\nquote: 'it''s'\nfolded: >\n  one\n  two\nlong: a\n  b\n")
        #expect(String(decoding: storage.scalars.copied, as: UTF8.self) == "a\tbit'sone two\na b")
        #expect(root.pairs.map { $0.value.scalar } == ["a\tb", "it's", "one two\n", "a b"])
    }

    @Test func scalarsAfterNonASCIITextAreStillRight() throws {
        let (_, root) = try storage("é: ü\nnext: plain\n'q': \"x\"\n")
        #expect(root.pairs.map { $0.key.scalar } == ["é", "next", "q"])
        #expect(root.pairs.map { $0.value.scalar } == ["ü", "plain", "x"])
    }

    @Test func copiedAndVerbatimKeysCompareByText() throws {
        let errors = parseErrors("key: 1\n\"k\\x65y\": 2\n")
        #expect(errors.map(\.message) == ["duplicate key 'key'"])
        #expect(errors.first?.location == at(2, 1))
    }
}
