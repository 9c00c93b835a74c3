import MilepostSystem

/// Text that came from outside Milepost (a manifest, a step's output replayed from the journal, a
/// store's files) made safe to print: it cannot move the cursor, recolour the terminal, start a
/// line, or become a GitHub Actions workflow command.
extension String {
    /// Every control character as a visible escape: `\n`, `\r`, `\t`, and `\u{1B}` for the rest of
    /// C0, DEL, C1 (NEL included) and the Unicode line and paragraph separators; and a byte of a
    /// path that is not UTF-8 (`PathText`: U+10FF80…U+10FFFF) as `\xFF`. Text without them is
    /// returned as it is.
    /// - parameter keepingTabs: leave tabs alone (a quoted source line, whose caret line copies them).
    /// - parameter keepingNewlines: leave `\n` alone (a step's output, shown line by line).
    package func escapingControlCharacters(keepingTabs: Bool = false, keepingNewlines: Bool = false) -> String {
        let isEscaped = { (scalar: Unicode.Scalar) in
            Self.isControl(scalar) && !(keepingTabs && scalar == "\t") && !(keepingNewlines && scalar == "\n")
        }
        // Printable ASCII, most text, is checked as bytes: no scalar of it is escaped.
        let printable = utf8.withContiguousStorageIfAvailable { $0.allSatisfy { (0x20..<0x7F).contains($0) } } ?? false
        guard !printable, unicodeScalars.contains(where: isEscaped) else { return self }
        var escaped = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard isEscaped(scalar) else {
                escaped.append(scalar)
                continue
            }
            let text = switch scalar {
            case _ where PathText.isByte(scalar): PathText.readable(String(scalar))
            case "\n": #"\n"#
            case "\r": #"\r"#
            case "\t": #"\t"#
            default: #"\u{"# + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            escaped.append(contentsOf: text.unicodeScalars)
        }
        return String(escaped)
    }

    /// Each line that starts, after blanks, with `::` gets its first colon escaped (`\u{3A}`): the
    /// GitHub Actions runner reads such a line of a job's log as a workflow command
    /// (`::add-mask::`, `::error::`, `::stop-commands::`).
    package func neutralizingWorkflowCommands() -> String {
        guard containsUTF8(Array("::".utf8)) else { return self }
        return split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            let start = line.firstIndex { $0 != " " && $0 != "\t" } ?? line.endIndex
            guard line[start...].hasPrefix("::") else { return line }
            return line[..<start] + #"\u{3A}"# + line[line.index(after: start)...]
        }.joined(separator: "\n")
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
            || PathText.isByte(scalar)
    }
}
