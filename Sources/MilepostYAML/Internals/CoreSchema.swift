/// The YAML 1.2 core schema applied to a scalar's bytes.
enum CoreScalar: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// Integer syntax whose value does not fit in `Int`.
    case bigInt
    case float(Double)
    case string

    // MARK: - Resolution

    /// Resolves a plain scalar's text.
    static func resolve(_ text: UnsafeBufferPointer<UInt8>) -> CoreScalar {
        if let null = null(text) { return null }
        if let bool = bool(text) { return bool }
        if let int = int(text) { return int }
        if let float = float(text) { return float }
        return .string
    }

    /// Resolves `text` as the type named by an explicit core `tag`; nil when it does not match.
    /// `!!str` and `!` always give a string.
    static func resolve(_ text: UnsafeBufferPointer<UInt8>, taggedAs tag: CoreTag) -> CoreScalar? {
        switch tag {
        case .none: resolve(text)
        case .null: null(text)
        case .bool: bool(text)
        case .int: int(text)
        case .float: int(text).map(asFloat) ?? float(text)
        case .str, .nonSpecific, .seq, .map: .string
        }
    }

    /// Whether `text` is one of the null forms (`~`, `null`, `Null`, `NULL`, empty).
    static func isNull(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        null(text) != nil
    }

    private static func asFloat(_ value: CoreScalar) -> CoreScalar {
        if case .int(let int) = value { return .float(Double(int)) }
        return value
    }

    // MARK: - Null and booleans

    private static func null(_ text: UnsafeBufferPointer<UInt8>) -> CoreScalar? {
        switch text.count {
        case 0: .null
        case 1: text[0] == UInt8(ascii: "~") ? .null : nil
        case 4: matches(text, ["null", "Null", "NULL"]) ? .null : nil
        default: nil
        }
    }

    private static func bool(_ text: UnsafeBufferPointer<UInt8>) -> CoreScalar? {
        if matches(text, ["true", "True", "TRUE"]) { return .bool(true) }
        if matches(text, ["false", "False", "FALSE"]) { return .bool(false) }
        return nil
    }

    private static func matches(_ text: UnsafeBufferPointer<UInt8>, _ words: [StaticString]) -> Bool {
        words.contains { word in
            word.utf8CodeUnitCount == text.count
                && word.withUTF8Buffer { $0.elementsEqual(text) }
        }
    }

    // MARK: - Integers

    /// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`.
    private static func int(_ text: UnsafeBufferPointer<UInt8>) -> CoreScalar? {
        guard let literal = IntegerLiteral(text) else { return nil }
        return literal.value.map(CoreScalar.int) ?? .bigInt
    }

    /// The parts of an integer literal: sign, radix and digits.
    struct IntegerLiteral {
        var negative: Bool
        var radix: Int
        var digits: UnsafeBufferPointer<UInt8>

        init?(_ text: UnsafeBufferPointer<UInt8>) {
            let prefixed = text.count > 2 && text[0] == UInt8(ascii: "0")
            if prefixed, text[1] == UInt8(ascii: "o") {
                (negative, radix, digits) = (false, 8, UnsafeBufferPointer(rebasing: text[2...]))
            } else if prefixed, text[1] == UInt8(ascii: "x") {
                (negative, radix, digits) = (false, 16, UnsafeBufferPointer(rebasing: text[2...]))
            } else {
                let signed = text.first == UInt8(ascii: "-") || text.first == UInt8(ascii: "+")
                negative = text.first == UInt8(ascii: "-")
                radix = 10
                digits = UnsafeBufferPointer(rebasing: text[(signed ? 1 : 0)...])
            }
            let radix = radix
            guard !digits.isEmpty, digits.allSatisfy({ Self.digitValue($0, radix: radix) != nil }) else { return nil }
        }

        /// The value as `I`, nil when it does not fit.
        func value<I: FixedWidthInteger>(as _: I.Type = Int.self) -> I? {
            var result: I = 0
            for digit in digits {
                let (shifted, overflow) = result.multipliedReportingOverflow(by: I(radix))
                let d = I(Self.digitValue(digit, radix: radix)!)
                let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(d) : shifted.addingReportingOverflow(d)
                guard !overflow, !overflow2 else { return nil }
                result = next
            }
            return result
        }

        var value: Int? { value(as: Int.self) }

        private static func digitValue(_ byte: UInt8, radix: Int) -> Int? {
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            return value < radix ? value : nil
        }
    }

    // MARK: - Floats

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?\.(inf|Inf|INF)`, `\.nan|\.NaN|\.NAN`.
    private static func float(_ text: UnsafeBufferPointer<UInt8>) -> CoreScalar? {
        var rest = text[...]
        let sign = rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "+")
        let negative = rest.first == UInt8(ascii: "-")
        if sign { rest = rest.dropFirst() }
        let unsigned = UnsafeBufferPointer(rebasing: rest)
        if matches(unsigned, [".inf", ".Inf", ".INF"]) { return .float(negative ? -.infinity : .infinity) }
        if !sign, matches(unsigned, [".nan", ".NaN", ".NAN"]) { return .float(.nan) }

        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let integerDigits = rest.prefix(while: isDigit).count
        rest = rest.dropFirst(integerDigits)
        var fractionDigits = 0
        let hasDot = rest.first == UInt8(ascii: ".")
        if hasDot {
            rest = rest.dropFirst()
            fractionDigits = rest.prefix(while: isDigit).count
            rest = rest.dropFirst(fractionDigits)
        }
        guard integerDigits > 0 || fractionDigits > 0 else { return nil }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }
            let exponentDigits = rest.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return nil }
            rest = rest.dropFirst(exponentDigits)
        }
        guard rest.isEmpty, let value = Double(String(decoding: text, as: UTF8.self)) else { return nil }
        return .float(value)
    }
}
