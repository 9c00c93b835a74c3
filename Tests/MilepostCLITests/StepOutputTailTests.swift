import Foundation
import Testing

/// The last lines of a failed or interrupted `exec` step's stderr, stored with the failure (state
/// and journal) and shown where operators look: `status`, `history`, JSON and GitHub annotations.
@Suite struct StepOutputTailTests {
    /// 30 numbered lines, then one with an escape sequence and a workflow command, then exit 3.
    static let failing = """
        migrations:
          1:
            - name: exec
              id: noisy
              with: {command: [sh, -c, 'i=0; while [ $i -lt 30 ]; do i=$((i+1)); echo "line $i" >&2; done; printf "\\033[2Jgone\\n::add-mask::x\\n" >&2; exit 3']}
        """

    @Test func aFailedStepKeepsItsLastTwentyLinesWithControlCharactersEscaped() throws {
        let work = try WorkDirectory()
        try work.write(Self.failing, to: "milepost.yaml")
        #expect(try work.milepost.run("run", "--to", "1").status == 1)

        let expected = (13...30).map { "line \($0)" } + [#"\u{1B}[2Jgone"#, "::add-mask::x"]
        let failed = try #require(try ReliabilityFixture.object(try work.read(".milepost/state.json"))["failed"] as? [String: Any])
        #expect(failed["stderr"] as? String == expected.joined(separator: "\n"))
        let record = try #require(try ReliabilityFixture.journal(in: work).first { $0["event"] as? String == "step-failed" })
        #expect(record["stderr"] as? String == expected.joined(separator: "\n"))

        let status = try work.milepost.run("status")
        #expect(status.stdout.contains("  stderr      | line 13\n              | line 14\n"), "\(status.stdout)")
        #expect(status.stdout.contains(#"| \u{1B}[2Jgone"#))
        #expect(!status.stdout.contains("\u{1B}"))

        let history = try work.milepost.run("history")
        #expect(history.stdout.contains("| line 30\n"), "\(history.stdout)")
        #expect(!history.stdout.contains("\u{1B}"))

        let json = try ReliabilityFixture.object(try work.milepost.run("status", "--format", "json").stdout)
        #expect((json["failed"] as? [String: Any])?["stderr"] as? String == expected.joined(separator: "\n"))

        // The annotation is one line: GitHub's own escapes, and no line of the tail starts a command.
        let github = try work.milepost.run("status", "--format", "github")
        let annotation = try #require(github.stdout.split(separator: "\n").last)
        #expect(annotation.hasPrefix("::error file=milepost.yaml,line=3,title=milepost%3A 1/noisy failed::'sh' exited with status 3%0Astderr:%0A"), "\(annotation)")
        #expect(annotation.hasSuffix(#"%0Astderr:%0Aline 13%0A"# + (14...30).map { "line \($0)%0A" }.joined() + #"\u{1B}[2Jgone%0A::add-mask::x"#))
        #expect(github.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }.count == 1, "\(github.stdout)")
    }

    @Test func anInterruptedStepKeepsItsTailToo() throws {
        let work = try WorkDirectory()
        try work.write(ReliabilitySignalTests.manifest("echo about to wait >&2; touch started; exec sleep 300"), to: "milepost.yaml")
        let (result, died) = try ReliabilitySignalTests.interrupt(work, with: SIGTERM, arguments: [], ending: "step.pid")
        #expect(died, "the step outlived the interruption")
        #expect(result.status == 143, "\(result.stderr)")

        let mark = try #require(try ReliabilityFixture.object(try work.read(".milepost/state.json"))["in_progress"] as? [String: Any])
        #expect(mark["stderr"] as? String == "about to wait")
        let record = try #require(try ReliabilityFixture.journal(in: work).first { $0["event"] as? String == "step-interrupted" })
        #expect(record["stderr"] as? String == "about to wait")
        let status = try work.milepost.run("status", "--format", "github")
        #expect(status.stdout.contains("  stderr      | about to wait\n"), "\(status.stdout)")
        #expect(status.stdout.contains("::error file=milepost.yaml,line=3,title=milepost%3A 1/work was interrupted::its run stopped mid-step (pid "), "\(status.stdout)")
    }
}
