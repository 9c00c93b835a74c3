import MilepostYAML
import Testing

@Suite struct CanonicalTextTests {
    @Test func sortsKeysAndResolvesScalars() throws {
        let root = try #require(parse("""
            b: [1, "1", 1.50, true, ~, .inf, 0x10, "a\\"b\\\\c\\n\\u0001"]
            a: {z: 'x', y: -.inf}
            2.10: x
            2.1: y
            """))
        #expect(root.canonicalText == #"{"2.1":"y","2.10":"x","a":{"y":-.inf,"z":"x"},"b":[1,"1",1.5,true,null,.inf,16,"a\"b\\c\n\u0001"]}"#)
    }

    @Test func isIndependentOfLayoutAndKeyOrder() throws {
        let flow = try #require(parse("{with: {batch: 500, table: dailys}, retries: 2}"))
        let block = try #require(parse("retries: 0x2\nwith:\n  table: \"dailys\"\n  batch: 500\n"))
        #expect(flow.canonicalText == block.canonicalText)
        #expect(flow.canonicalText == #"{"retries":2,"with":{"batch":500,"table":"dailys"}}"#)
        let quoted = try #require(parse("{with: {batch: '500', table: dailys}, retries: 2}"))
        #expect(flow.canonicalText != quoted.canonicalText)
    }

    @Test func expandsAliases() throws {
        let root = try #require(parse("a: &x [1, {k: v}]\nb: *x\n"))
        #expect(root.canonicalText == #"{"a":[1,{"k":"v"}],"b":[1,{"k":"v"}]}"#)
    }

    @Test func bigIntegersKeepTheirDigits() throws {
        let root = try #require(parse("[99999999999999999999, '99999999999999999999']"))
        #expect(root.canonicalText == #"[99999999999999999999,"99999999999999999999"]"#)
    }
}
