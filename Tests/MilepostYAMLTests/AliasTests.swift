import MilepostYAML
import Testing

@Suite struct AliasTests {
    @Test func aliasIsTheAnchoredNode() throws {
        let root = try #require(parse("base: &b {table: dailys}\nuse: *b\nlist: [&s x, *s]\n"))
        let use = try #require(root["use"])
        #expect(use.kind == .mapping)
        #expect(use.location == at(1, 7))
        #expect(use["table"]?.scalar == "dailys")
        #expect(root["list"]?.elements.map(\.scalar) == ["x", "x"])
    }

    @Test func billionLaughsIsRefused() {
        var source = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...8 {
            let previous = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level - 1)))
            let name = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(level)))
            source += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        let clock = ContinuousClock()
        var errors: [YAMLError] = []
        let elapsed = clock.measure { errors = parseErrors(source) }
        #expect(errors == [YAMLError("aliases expand to more than 10000 nodes (alias '*d')", at: at(5, 8))])
        #expect(elapsed < .seconds(1))
    }

    @Test func largeScalarAliasedManyTimesIsRefused() {
        let big = String(repeating: "x", count: 100_000)
        let source = "big: &big \(big)\nuses: [" + Array(repeating: "*big", count: 11).joined(separator: ", ") + "]\n"
        let errors = parseErrors(source)
        #expect(errors == [YAMLError("aliases expand to more than 1048576 bytes of scalars (alias '*big')", at: at(2, 68))])
    }

    @Test func thousandsOfAliasesAreRefused() {
        let source = "a: &a x\nb: [" + Array(repeating: "*a", count: 5_000).joined(separator: ", ") + "]\n"
        let errors = parseErrors(source)
        #expect(errors == [YAMLError("more than 100 aliases", at: at(2, 405))])
    }

    @Test func aliasCountLimitIsConfigurable() throws {
        let source = "a: &a x\nb: [*a, *a, *a]\n"
        #expect(parseErrors(source, limits: YAMLLimits(maxAliases: 2)) == [YAMLError("more than 2 aliases", at: at(2, 13))])
        #expect(parse(source, limits: YAMLLimits(maxAliases: 3)) != nil)
    }

    @Test func recursiveAliasIsAnError() {
        let errors = parseErrors("a: &a [x, *a]\n")
        #expect(errors == [YAMLError("alias '*a' refers to a node that contains it (recursive alias)", at: at(1, 11))])
    }

    @Test func undefinedAliasesAreAllReported() {
        let errors = parseErrors("a: *nope\nb: [*also]\n")
        #expect(errors == [
            YAMLError("undefined alias '*nope'", at: at(1, 4)),
            YAMLError("undefined alias '*also'", at: at(2, 5)),
        ])
    }
}
