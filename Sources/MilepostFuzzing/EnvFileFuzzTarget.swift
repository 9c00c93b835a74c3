import Milepost

extension FuzzTarget {
    /// An `--env-file`, as the manifest's variables read it.
    static let envFile = FuzzTarget(
        name: "env-file",
        summary: "env file bytes → EnvFile.parse; names are [A-Za-z_][A-Za-z0-9_]*; each problem is on a line; CRLF line "
            + "ends read as LF; each value read, written back double-quoted, reads back the same"
    ) { bytes in
        let (values, problems) = EnvFile.parse(ManifestSource(path: ".env", bytes: bytes))
        let lineCount = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        for name in values.keys {
            try oracle(isVariableName(name), "a variable named \(name.debugDescription)")
        }
        for problem in problems {
            try oracle(problem.location.map { (1...lineCount).contains($0.line) } ?? false, "a problem not on a line: \(problem)")
        }
        // A file saved with CRLF line ends (an editor on Windows) sets the same values.
        let crlf = EnvFile.parse(ManifestSource(path: ".env", bytes: crlfLineEnds(bytes)))
        try oracle(
            crlf.values == values && crlf.problems.count == problems.count,
            "CRLF line ends change what the env file sets: \(values) → \(crlf.values)")
        // The double-quoted form reads back any value.
        let written = values.sorted { $0.key < $1.key }.map { name, value in "\(name)=\"\(quoted(value))\"\n" }.joined()
        let reread = EnvFile.parse(ManifestSource(path: ".env", bytes: Array(written.utf8)))
        try oracle(reread.problems.isEmpty && reread.values == values, "the values written double-quoted read back as \(reread.values)")
    }

    private static func isVariableName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        return !scalars.isEmpty && !("0"..."9").contains(scalars[0]) && scalars.allSatisfy(isNameScalar)
    }

    /// `value` inside double quotes, with the escapes the syntax documents: `\\`, `\"`, `\n`.
    private static func quoted(_ value: String) -> String {
        var text = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
