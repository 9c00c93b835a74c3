import MilepostYAML
import Testing

@Suite struct CoreSchemaTests {
    @Test(arguments: [
        ("~", YAMLScalarValue.null), ("null", .null), ("Null", .null), ("NULL", .null), ("", .null),
        ("nULL", .string("nULL")),
        ("true", .bool(true)), ("True", .bool(true)), ("TRUE", .bool(true)),
        ("false", .bool(false)), ("False", .bool(false)), ("FALSE", .bool(false)),
        ("yes", .string("yes")), ("no", .string("no")), ("on", .string("on")), ("off", .string("off")),
        ("0", .int(0)), ("-17", .int(-17)), ("+42", .int(42)), ("007", .int(7)),
        ("0o17", .int(15)), ("0x1F", .int(31)), ("0xff", .int(255)),
        ("0o8", .string("0o8")), ("0xG", .string("0xG")), ("-0x1", .string("-0x1")),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .string("9223372036854775808")),
        ("1.5", .float(1.5)), ("-.5", .float(-0.5)), ("5.", .float(5)), ("1e3", .float(1000)),
        ("2.5E-1", .float(0.25)), ("+1.0e+2", .float(100)), ("2.10", .float(2.1)),
        (".inf", .float(.infinity)), ("-.Inf", .float(-.infinity)), ("+.INF", .float(.infinity)),
        ("1e", .string("1e")), (".", .string(".")), ("1.2.3", .string("1.2.3")), ("1_000", .string("1_000")),
        ("30s", .string("30s")), ("abc", .string("abc")),
    ])
    func plainScalars(text: String, value: YAMLScalarValue) throws {
        let node = try #require(parse("v: \(text)")?["v"])
        #expect(node.coreValue == value)
    }

    @Test(arguments: [".nan", ".NaN", ".NAN"])
    func notANumber(text: String) throws {
        let node = try #require(parse("v: \(text)")?["v"])
        guard case .float(let value)? = node.coreValue else {
            Issue.record("not a float: \(String(describing: node.coreValue))")
            return
        }
        #expect(value.isNaN)
    }

    @Test(arguments: ["'500'", "\"true\"", "\"~\"", "|\n  12\n", "'null'"])
    func quotedAndBlockScalarsAreStrings(source: String) throws {
        let node = try #require(parse("v: \(source)")?["v"])
        guard case .string? = node.coreValue else {
            Issue.record("not a string: \(String(describing: node.coreValue))")
            return
        }
    }
}
