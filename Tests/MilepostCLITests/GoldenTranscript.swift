import Foundation
import Testing

/// Records commands run with the real binary — arguments, exit code, stdout (`1|`) and stderr (`2|`),
/// normalized — and compares the transcript with `Tests/Golden/NAME.txt`. Every `--format json`
/// output is also checked against docs/json-schema.json.
///
/// To regenerate after an intended change: `MILEPOST_UPDATE_GOLDEN=1 swift test --filter GoldenTests`,
/// then review the diff of Tests/Golden/.
struct GoldenTranscript {
    static let directory = JSONSchema.repository.appendingPathComponent("Tests/Golden")

    let name: String
    let work: WorkDirectory
    private var normalizer: GoldenNormalizer
    private var text = ""
    private let schema: JSONSchema

    /// - parameter replacements: text of this test run (a server's address) and its placeholder.
    init(_ name: String, in work: WorkDirectory, replacing replacements: [(text: String, placeholder: String)] = []) throws {
        self.name = name
        self.work = work
        normalizer = GoldenNormalizer(work: work.path, replacing: replacements)
        schema = try JSONSchema()
    }

    /// Writes a comment line (a scenario step that is not a milepost command).
    mutating func note(_ comment: String) {
        text += "# \(comment)\n"
    }

    /// Runs `milepost arguments…` in the work directory and records it.
    @discardableResult
    mutating func milepost(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> MilepostBinary.Result {
        // Help text wraps at COLUMNS when it is set: pin it.
        let result = try MilepostBinary(directory: work.path, environment: ["COLUMNS": "80"]).run(arguments)
        record(arguments, result, sourceLocation: sourceLocation)
        return result
    }

    /// Records a command started earlier (with `MilepostBinary.start`) that has now finished.
    mutating func record(_ arguments: [String], _ result: MilepostBinary.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        if let format = arguments.firstIndex(of: "--format"), arguments.dropFirst(format + 1).first == "json",
           !result.stdout.isEmpty, var command = arguments.first {
            // `plan` with several --from prints a list of plans.
            if command == "plan", arguments.count(where: { $0 == "--from" }) > 1 { command = "plans" }
            let problems = schema.problems(ofDocument: result.stdout, command: command)
            #expect(problems.isEmpty, "\(arguments.joined(separator: " ")): \(problems)", sourceLocation: sourceLocation)
        }
        text += normalizer.normalize("$ milepost \(arguments.map(CommandQuoting.word).joined(separator: " "))\n")
        text += "→ exit \(result.status)\n"
        let table = arguments.first == "history" && !arguments.contains("json")
        text += lines(result.stdout, prefix: "1|", columns: table) + lines(result.stderr, prefix: "2|") + "\n"
    }

    private mutating func lines(_ output: String, prefix: String, columns: Bool = false) -> String {
        guard !output.isEmpty else { return "" }
        let normalized = normalizer.normalize(output, columns: columns)
        let body = normalized.hasSuffix("\n") ? String(normalized.dropLast()) : normalized + "\n\(prefix)(no newline at end)"
        return body.split(separator: "\n", omittingEmptySubsequences: false).map { "\(prefix) \($0)" }.joined(separator: "\n") + "\n"
    }

    /// Compares with the golden file, or writes it when `MILEPOST_UPDATE_GOLDEN` is set.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = Self.directory.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["MILEPOST_UPDATE_GOLDEN"] != nil {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no golden file \(url.path): run MILEPOST_UPDATE_GOLDEN=1 swift test --filter GoldenTests",
                         sourceLocation: sourceLocation)
            return
        }
        let (actualLines, expectedLines) = (text.split(separator: "\n", omittingEmptySubsequences: false),
                                            expected.split(separator: "\n", omittingEmptySubsequences: false))
        if let line = zip(actualLines, expectedLines).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
            ?? (actualLines.count == expectedLines.count ? nil : min(actualLines.count, expectedLines.count)) {
            let show = { (lines: [Substring]) in lines.dropFirst(max(0, line - 3)).prefix(6).joined(separator: "\n") }
            Issue.record("""
                \(name).txt differs at line \(line + 1) (regenerate with MILEPOST_UPDATE_GOLDEN=1 if intended)
                expected:
                \(show(expectedLines))
                actual:
                \(show(actualLines))
                """, sourceLocation: sourceLocation)
        }
    }
}

/// Shell-style quoting of a recorded argument.
enum CommandQuoting {
    static func word(_ text: String) -> String {
        text.contains(where: { " '\"$".contains($0) }) || text.isEmpty ? "'\(text)'" : text
    }
}
