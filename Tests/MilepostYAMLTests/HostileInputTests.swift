import MilepostYAML
import Testing

@Suite struct HostileInputTests {
    @Test func deepFlowNestingIsRefusedWithoutRecursion() {
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 200_000) + [UInt8](repeating: UInt8(ascii: "]"), count: 200_000)
        let errors = parseErrors(bytes)
        #expect(errors == [YAMLError("nesting is deeper than the limit of 64 levels", at: at(1, 65))])
    }

    @Test func deepBlockNestingIsRefused() {
        let source = (0..<100).map { String(repeating: "  ", count: $0) + "k:\n" }.joined()
        let errors = parseErrors(source)
        #expect(errors == [YAMLError("nesting is deeper than the limit of 64 levels", at: at(65, 129))])
    }

    @Test func depthLimitIsExact() throws {
        let nested = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(parse(nested, limits: YAMLLimits(maxDepth: 10)) != nil)
        #expect(parseErrors(nested, limits: YAMLLimits(maxDepth: 9)) == [
            YAMLError("nesting is deeper than the limit of 9 levels", at: at(1, 10))
        ])
    }

    @Test func sizeCapIsEnforced() throws {
        let source = "key: " + String(repeating: "v", count: 95)
        #expect(parse(source, limits: YAMLLimits(maxDocumentBytes: 100)) != nil)
        #expect(parseErrors(source + "v", limits: YAMLLimits(maxDocumentBytes: 100)) == [
            YAMLError("the document is 101 bytes, more than the limit of 100 bytes", at: nil)
        ])
    }

    @Test func invalidUTF8IsLocated() {
        let errors = parseErrors(Array("a: ok\nb: [1, ".utf8) + [0xFF] + Array("]\n".utf8))
        #expect(errors == [YAMLError("invalid UTF-8: invalid leading UTF-8 octet 0xFF", at: at(2, 8))])
    }

    @Test func truncatedUTF8SequenceIsLocated() {
        let errors = parseErrors(Array("é: \"".utf8) + [0xC3] + Array("\"\n".utf8))
        #expect(errors == [YAMLError("invalid UTF-8: invalid trailing UTF-8 octet 0x22", at: at(1, 5))])
    }

    @Test func nulByteIsLocated() {
        let errors = parseErrors(Array("a: 1\nb: x".utf8) + [0] + Array("y\n".utf8))
        #expect(errors == [YAMLError("control character U+0000 is not allowed", at: at(2, 5))])
    }

    @Test func binaryJunkIsAnErrorNotACrash() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let junk = (0..<512).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let errors = parseErrors(junk)
            #expect(errors.count >= 1)
            #expect(errors.allSatisfy { $0.location != nil })
        }
    }

    @Test func knownBinaryPrefixIsLocated() {
        let elf = parseErrors([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00])
        #expect(elf == [YAMLError("control character U+007F is not allowed", at: at(1, 1))])
        let png = parseErrors([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(png == [YAMLError("invalid UTF-8: invalid leading UTF-8 octet 0x89", at: at(1, 1))])
        let text = parseErrors(Array("key: value\nmore: text\r\nthen: \u{1A}".utf8))
        #expect(text == [YAMLError("control character U+001A is not allowed", at: at(3, 7))])
    }

    @Test func tabIndentationSaysSo() {
        let errors = parseErrors("steps:\n\t- a\n")
        #expect(errors == [YAMLError("a tab character cannot be used for indentation or separation here; use spaces", at: at(2, 1))])
    }

    @Test func syntaxErrorsIncludeLibYAMLContext() {
        let errors = parseErrors("a: b\nc\nd: e\n")
        #expect(errors == [YAMLError("could not find expected ':' (while scanning a simple key at 2:1)", at: at(3, 1))])
    }

    @Test func syntaxErrorComesAfterEarlierStructuralErrors() {
        let errors = parseErrors("a: 1\na: 2\nb: [\n")
        #expect(errors.map(\.message) == ["duplicate key 'a'", "did not find expected node content (while parsing a flow node at 4:1)"])
    }
}
