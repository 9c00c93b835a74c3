internal import CYAML

/// Turns libyaml's reader, scanner and parser errors into located `YAMLError`s.
enum LibYAMLError {
    static func error(from parser: yaml_parser_t, input: [UInt8]) -> YAMLError {
        let problem = parser.problem.map { String(cString: $0) } ?? "syntax error"
        switch parser.error {
        case YAML_MEMORY_ERROR:
            return YAMLError("libyaml ran out of memory", at: nil)
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset into the input, not a mark.
            let location = SourceLines(input).location(ofByte: parser.problem_offset)
            return YAMLError(readerMessage(problem, value: parser.problem_value), at: location)
        default:
            let location = Composer.location(parser.problem_mark)
            if SourceLines(input).scalar(at: location) == "\t" {
                return YAMLError("a tab character cannot be used for indentation or separation here; use spaces", at: location)
            }
            guard let context = parser.context.map({ String(cString: $0) }) else {
                return YAMLError(problem, at: location)
            }
            let contextLocation = Composer.location(parser.context_mark)
            return YAMLError("\(problem) (\(context) at \(contextLocation))", at: location)
        }
    }

    private static func readerMessage(_ problem: String, value: Int32) -> String {
        switch problem {
        case "control characters are not allowed":
            "control character \(hex(value, digits: 4, prefix: "U+")) is not allowed"
        case "invalid leading UTF-8 octet", "invalid trailing UTF-8 octet":
            "invalid UTF-8: \(problem) \(hex(value, digits: 2, prefix: "0x"))"
        case "incomplete UTF-8 octet sequence", "invalid length of a UTF-8 sequence", "invalid Unicode character":
            "invalid UTF-8: \(problem)"
        default:
            problem
        }
    }

    private static func hex(_ value: Int32, digits: Int, prefix: String) -> String {
        let text = String(UInt32(bitPattern: value), radix: 16, uppercase: true)
        return prefix + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
