import Milepost
import Testing

/// What an app gets from the library without the CLI: versions as literals, manifest errors that
/// print as the CLI prints them, and a runner that logs nothing unless given a logger.
@Suite struct AdoptionTests {
    @Test func aVersionIsWrittenAsAStringLiteral() {
        let version: Version = "2.10"
        #expect(version.text == "2.10")
        #expect(version > "2.9")
        #expect(version == Version("2.10.0"))  // with a literal, Version("…") is the literal form
        let parsed: Version? = Version(String("2.x"))  // text from elsewhere still parses to nil
        #expect(parsed == nil)
    }

    @Test func aLiteralThatIsNotAVersionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Version(stringLiteral: "2.x")
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(#"the literal "2.x" is not a version (expected dot-separated numbers such as 2.10.1)"#), "\(stderr)")
    }

    static let invalid = "migrations:\n  \"2.1\":\n    - exce\n"

    @Test func aManifestErrorPrintsCompilerStyleWithTheSourceLine() throws {
        let error = #expect(throws: ManifestError.self) {
            try Manifest.parse(ManifestSource(path: "milepost.yaml", bytes: Array(Self.invalid.utf8)), registry: .standard)
        }
        let text = try #require(error).description
        #expect(text == """
            milepost.yaml:3:7: error: unknown step 'exce'
            3 |     - exce
              |       ^
            note: did you mean 'exec'?
            milepost.yaml is invalid (1 error)
            """, "\(text)")
        #expect(error?.localizedDescription == text)
        #expect("\(ManifestError.unreadable(path: "m.yaml", reason: "No such file or directory"))"
            == "cannot read the manifest m.yaml: No such file or directory")
    }

    @Test func aDiagnosticPrintsCompilerStyle() throws {
        let diagnostic = Diagnostic(.warning, "a step\u{1B}", file: "m.yaml", at: nil)
        #expect(diagnostic.description == #"m.yaml: warning: a step\u{1B}"#)
        guard case .invalid(let diagnostics, let source) = try #require(#expect(throws: ManifestError.self) {
            try Manifest.parse(ManifestSource(path: "milepost.yaml", bytes: Array(Self.invalid.utf8)), registry: .standard)
        }) else { Issue.record("not invalid"); return }
        let first = try #require(diagnostics.first)
        #expect("\(first)" == "milepost.yaml:3:7: error: unknown step 'exce'\nnote: did you mean 'exec'?")
        let marked = first.rendered(source: source) { text, part in part == .caret ? "[\(text)]" : text }
        #expect(marked.contains("  |       [^]"), "\(marked)")
    }

    @Test func aRunnerLogsNothingUnlessGivenALogger() {
        let runner = Runner(store: FileStore(path: "/nonexistent/.milepost"))
        #expect(String(describing: type(of: runner.logger.handler)) == "SwiftLogNoOpLogHandler")
    }
}
