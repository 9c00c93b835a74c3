import Foundation
import Testing

/// Untrusted text (the manifest's values, a step's stderr replayed from the journal) reaches text
/// output with its control characters escaped, and no line Milepost prints can be read by a GitHub
/// Actions runner as a workflow command — except `validate --format github`'s own annotations.
@Suite struct ReliabilityOutputTests {
    /// No raw control character but the line feed, and no line that is a workflow command.
    static func expectInert(_ output: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let controls = output.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(what) prints raw control characters: \(controls.map(\.value))", sourceLocation: sourceLocation)
        for line in output.split(separator: "\n") {
            #expect(!line.drop { $0 == " " || $0 == "\t" }.hasPrefix("::"), "\(what): \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test func manifestValuesAreEscapedInValidateAndGitHubAnnotationsStayOneLineEach() throws {
        let work = try WorkDirectory()
        try work.write(#"""
            app: "demo\e[2J\e]0;owned\a"
            migrations:
              "1.0\n::error file=x.yaml::forged\r\n::add-mask::secret": [{name: exec, id: a, with: {command: ["true"]}}]
            """#, to: "milepost.yaml")
        let text = try work.milepost.run("validate")
        #expect(text.status == 65)
        #expect(text.stderr.contains(#"invalid version '1.0\n::error file=x.yaml::forged\r\n::add-mask::secret'"#), "\(text.stderr)")
        Self.expectInert(text.stdout + text.stderr, "validate")

        let github = try work.milepost.run("validate", "--format", "github")
        #expect(github.status == 65)
        let lines = github.stdout.split(separator: "\n")
        #expect(lines.count == 1, "\(github.stdout)")
        #expect(lines.first?.hasPrefix("::error file=milepost.yaml,line=3,col=3::") == true, "\(github.stdout)")
        #expect(github.stdout.contains("%0A::error file=x.yaml::forged%0D%0A::add-mask::secret"), "\(github.stdout)")
        Self.expectInert(github.stderr, "validate --format github (stderr)")
    }

    @Test func anAppNameWithEscapeSequencesIsEscapedInEveryCommand() throws {
        let work = try WorkDirectory()
        try work.write("""
            app: "demo\\e[31m\\n::warning::forged"
            migrations:
              1.0: [{name: exec, id: a, description: "reindex\\e[2J\\n::notice::x", with: {command: ["true"]}}]
            """, to: "milepost.yaml")
        for arguments in [["plan", "--to", "1.0"], ["run", "--to", "1.0"], ["status", "--to", "1.0"], ["run", "--to", "1.0"]] {
            let result = try work.milepost.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect((result.stdout + result.stderr).contains(#"demo\u{1B}[31m\n::warning::forged"#), "\(arguments): \(result.stdout)\(result.stderr)")
            Self.expectInert(result.stdout + result.stderr, arguments.joined(separator: " "))
        }
    }

    /// The step's stderr goes to Milepost's stderr live (it is the step's own output); what is kept
    /// of it in the journal and the state is untrusted when `status` and `history` replay it.
    @Test func aStepsStderrReplayedByStatusAndHistoryIsEscaped() throws {
        let work = try WorkDirectory()
        try work.write(#"""
            migrations:
              1.0: [{name: exec, id: leak, with: {command: [sh, -c, 'printf "::add-mask::hunter2\n\033[31m::error::forged\n" >&2; exit 1']}}]
            """#, to: "milepost.yaml")
        let run = try work.milepost.run("run", "--to", "1.0")
        #expect(run.status == 1)
        // The step's stderr was shown as it wrote it; the FAILED line does not repeat it.
        let failedLine = try #require(run.stderr.split(separator: "\n").first { $0.contains("FAILED") })
        #expect(failedLine.hasSuffix(" ms: 'sh' exited with status 1") && !failedLine.contains("hunter2"), "\(failedLine)")
        for arguments in [["status"], ["status", "--to", "1.0"], ["history"], ["plan", "--to", "1.0"]] {
            let result = try work.milepost.run(arguments)
            if arguments[0] != "plan" {
                #expect((result.stdout + result.stderr).contains("hunter2"), "\(arguments): the stderr is not shown")
            }
            Self.expectInert(result.stdout + result.stderr, arguments.joined(separator: " "))
        }
    }
}
