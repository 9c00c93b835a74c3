import MilepostSystem
import MilepostYAML

/// The dotenv syntax of `--env-file`: one `NAME=value` a line, `export ` allowed before it, `#`
/// comments and blank lines ignored. A value is taken as written (trimmed, up to a ` #` comment),
/// or quoted: `'…'` literally, `"…"` with `\n`, `\t`, `\"`, `\\` and `\$` escapes. No interpolation.
package enum EnvFile {
    /// The values of `source`, and a located error for each line that is not an entry.
    package static func parse(_ source: ManifestSource) -> (values: [String: String], problems: [Diagnostic]) {
        var values: [String: String] = [:]
        var problems: [Diagnostic] = []
        let text = String(decoding: source.bytes, as: UTF8.self)
        for (offset, raw) in text.textLines.enumerated() {
            var line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = line.dropFirst("export ".count).drop { $0 == " " } }
            do {
                let (name, value) = try entry(line)
                values[name] = value
            } catch {
                let column = raw.distance(from: raw.startIndex, to: line.startIndex) + 1
                problems.append(Diagnostic(
                    .error, error.message, file: source.path, at: SourceLocation(line: offset + 1, column: column)))
            }
        }
        return (values, problems)
    }

    private static func entry(_ line: Substring) throws(VariableSubstitution.Problem) -> (String, String) {
        guard let equals = line.firstIndex(of: "=") else {
            throw .init(message: "expected NAME=value")
        }
        let name = String(line[..<equals]).trimmingSpaces
        guard VariableSubstitution.isName(name) else {
            throw .init(message: VariableSubstitution.invalidName("'\(name)'"))
        }
        let rest = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
        return (name, try value(rest))
    }

    /// Read by Unicode scalar: a quote is a quote whatever mark joins it into one `Character` (an
    /// accent after it, U+06DD before it).
    private static func value(_ text: Substring) throws(VariableSubstitution.Problem) -> String {
        let scalars = text.unicodeScalars
        guard let quote = scalars.first, quote == "'" || quote == "\"" else {
            let uncommented = text.firstRange(of: " #").map { text[..<$0.lowerBound] } ?? text
            return String(uncommented).trimmingSpaces
        }
        var result = String.UnicodeScalarView()
        var index = scalars.index(after: scalars.startIndex)
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == quote {
                let after = Substring(scalars[scalars.index(after: index)...]).drop { $0 == " " || $0 == "\t" }
                guard after.isEmpty || after.hasPrefix("#") else { throw .init(message: "unexpected text after the closing quote") }
                return String(result)
            }
            if quote == "\"", scalar == "\\", scalars.index(after: index) < scalars.endIndex {
                index = scalars.index(after: index)
                switch scalars[index] {
                case "n": result.append("\n")
                case "t": result.append("\t")
                default: result.append(scalars[index])
                }
            } else {
                result.append(scalar)
            }
            index = scalars.index(after: index)
        }
        throw .init(message: "a quoted value must end on its line")
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
