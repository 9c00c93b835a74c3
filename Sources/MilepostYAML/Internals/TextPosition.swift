/// Line and column arithmetic over raw UTF-8 input, counting the way libyaml does:
/// columns in Unicode scalars; `\n`, `\r`, `\r\n`, NEL, LS and PS each end a line.
enum TextPosition {
    /// The location of the byte at `offset` (clamped to the input).
    static func location(ofByte offset: Int, in input: [UInt8]) -> SourceLocation {
        var location = SourceLocation(line: 1, column: 1)
        walk(input) { byteOffset, current, _ in
            location = current
            return byteOffset < offset
        }
        return location
    }

    /// The Unicode scalar at `location`, nil when there is none or the text there is not UTF-8.
    static func scalar(at location: SourceLocation, in input: [UInt8]) -> Unicode.Scalar? {
        var found: Unicode.Scalar?
        walk(input) { _, current, scalar in
            if current == location { found = scalar }
            return current < location
        }
        return found
    }

    /// The text of 1-based line `number` without its line break, lines ending where the parser's do;
    /// nil past the end. Stops at the first byte that is not UTF-8.
    static func line(_ number: Int, in input: [UInt8]) -> String? {
        var text = String.UnicodeScalarView()
        var found = false
        walk(input) { _, current, scalar in
            guard current.line <= number else { return false }
            if current.line == number, let scalar {
                found = true
                if !["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) { text.append(scalar) }
            }
            return true
        }
        return found ? String(text) : nil
    }

    /// Calls `visit(offset, location, scalar)` for each scalar and once more at the end of the input
    /// (scalar nil), until `visit` returns false. `location` is where that scalar starts.
    private static func walk(_ input: [UInt8], _ visit: (Int, SourceLocation, Unicode.Scalar?) -> Bool) {
        var location = SourceLocation(line: 1, column: 1)
        var offset = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var previous: Unicode.Scalar?
        var iterator = input[offset...].makeIterator()
        var decoder = UTF8()
        while true {
            let scalar: Unicode.Scalar?
            switch decoder.decode(&iterator) {
            case .scalarValue(let value): scalar = value
            case .emptyInput, .error: scalar = nil
            }
            if previous == "\r", scalar != "\n" {
                location = SourceLocation(line: location.line + 1, column: 1)
            }
            guard visit(offset, location, scalar), let scalar else { return }
            offset += UTF8.width(scalar)
            switch scalar {
            case "\n", "\u{85}", "\u{2028}", "\u{2029}": location = SourceLocation(line: location.line + 1, column: 1)
            case "\r": break  // decided by the next scalar (CRLF is one break)
            default: location.column += 1
            }
            previous = scalar
        }
    }
}
