import Milepost
import Testing

@Suite struct LabelExpressionTests {
    @Test(arguments: [
        ("eu", ["eu"], true),
        ("eu", ["us"], false),
        ("eu", [], false),
        ("not eu", [], true),
        ("!eu", ["eu"], false),
        ("eu and heavy", ["eu"], false),
        ("eu and heavy", ["eu", "heavy"], true),
        ("eu or us", ["us"], true),
        ("eu, us", ["us"], true),
        ("eu or us and heavy", ["eu"], true),  // and binds tighter than or
        ("(eu or us) and heavy", ["eu"], false),
        ("eu and not heavy", ["eu", "heavy"], false),
        ("not not eu", ["eu"], true),
        ("EU", ["eu"], false),  // labels match exactly
        ("eu AND Not heavy", ["eu"], true),  // keywords do not care about case
        ("v2.x-y_z", ["v2.x-y_z"], true),
    ] as [(String, [String], Bool)])
    func matches(expression: String, labels: [String], expected: Bool) throws {
        #expect(try LabelExpression(parsing: expression).matches(labels) == expected)
    }

    @Test(arguments: [
        ("", 1, "the expression is empty"),
        ("   ", 4, "the expression is empty"),
        ("eu and", 7, "expected a label, 'not' or '(', found the end of the expression"),
        ("eu heavy", 4, "expected 'and', 'or' or the end of the expression, found 'heavy'"),
        ("eu and (heavy", 14, "expected ')' to close the '(' at column 8, found the end of the expression"),
        ("eu)", 3, "')' without a matching '('"),
        ("eu & us", 4, "unexpected '&'"),
        ("eu or 2x", 7, "invalid label '2x'"),
        ("() or eu", 2, "expected a label, 'not' or '(', found ')'"),
        ("eu or or", 7, "expected a label, 'not' or '(', found 'or'"),
    ] as [(String, Int, String)])
    func reportsTheColumnOfAnError(expression: String, column: Int, message: String) {
        #expect(throws: LabelExpression.ParseError.self) { try LabelExpression(parsing: expression) }
        do {
            _ = try LabelExpression(parsing: expression)
        } catch {
            #expect(error.column == column)
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.description.hasSuffix("\n  \(expression)\n  " + String(repeating: " ", count: column - 1) + "^"))
        }
    }

    @Test func refusesDeepNestingInBoundedDepth() {
        let deep = String(repeating: "(", count: 10_000) + "eu" + String(repeating: ")", count: 10_000)
        #expect(throws: LabelExpression.ParseError.self) { try LabelExpression(parsing: deep) }
        let negations = String(repeating: "not ", count: 10_000) + "eu"
        #expect(throws: LabelExpression.ParseError.self) { try LabelExpression(parsing: negations) }
    }

    @Test(arguments: [("eu", true), ("_x.y-z", true), ("and", false), ("Or", false), ("2x", false), ("", false), ("a b", false)])
    func label(text: String, valid: Bool) {
        #expect(LabelExpression.isLabel(text) == valid)
    }
}
