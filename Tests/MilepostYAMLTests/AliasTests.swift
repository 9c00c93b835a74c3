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
        #expect(errors == [YAMLError("aliases expand to more than 250000 nodes (alias '*e')", at: at(6, 16))])
        #expect(elapsed < .seconds(1))
    }

    @Test func largeScalarAliasedManyTimesIsRefused() {
        let big = String(repeating: "x", count: 1_000_000)
        let source = "big: &big \(big)\nuses: [" + Array(repeating: "*big", count: 5).joined(separator: ", ") + "]\n"
        let errors = parseErrors(source)
        #expect(errors == [YAMLError("aliases expand to more than 4194304 bytes of scalars (alias '*big')", at: at(2, 32))])
    }

    /// The budget is what aliases expand to, not how many there are: one small anchor shared by
    /// thousands of uses is accepted.
    @Test func thousandsOfAliasesOfASmallAnchorAreAccepted() throws {
        let source = "a: &a {command: [sh, -c, 'echo hi']}\nb: [" + Array(repeating: "*a", count: 5_000).joined(separator: ", ") + "]\n"
        let root = try #require(parse(source))
        #expect(root["b"]?.elements.count == 5_000)
        #expect(root["b"]?.elements.last?["command"]?.elements.map(\.scalar) == ["sh", "-c", "echo hi"])
    }

    @Test func expansionBudgetIsConfigurable() throws {
        let source = "a: &a [x, y]\nb: [*a, *a, *a]\n"  // each use adds 3 nodes
        #expect(parseErrors(source, limits: YAMLLimits(maxAliasExpansionNodes: 8))
            == [YAMLError("aliases expand to more than 8 nodes (alias '*a')", at: at(2, 13))])
        #expect(parse(source, limits: YAMLLimits(maxAliasExpansionNodes: 9)) != nil)
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
