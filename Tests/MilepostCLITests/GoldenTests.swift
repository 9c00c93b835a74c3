import Foundation
import Testing

/// Pins the text and JSON output and the exit code of every command on a set of manifests and stores
/// (fresh, invalid, failed, interrupted, locked, drifted). Transcripts live in Tests/Golden/; see
/// `GoldenTranscript` for how to regenerate them.
@Suite struct GoldenTests {
    static let demo = """
        app: demo
        baseline: "1.0"
        migrations:
          2.7:
            - name: exec
              id: reindex
              description: Rebuild the search index
              with: {command: [sh, -c, 'echo reindex >> ran.txt']}
          2.1:
            - name: exec
              id: cleanup
              idempotent: true
              with: {command: [sh, -c, 'echo cleanup >> ran.txt']}
          3.0:
            - name: exec
              id: future
              with: {command: ['true']}
        """

    /// A manifest of `exec` steps: (threshold, id, command as a YAML flow list).
    static func execSteps(_ steps: [(threshold: String, id: String, command: String)]) -> String {
        "app: demo\nmigrations:\n" + steps.map { "  \($0.threshold): [{name: exec, id: \($0.id), with: {command: \($0.command)}}]\n" }.joined()
    }

    /// A step that records its pid, says it started, and sleeps until killed.
    static let blocking = execSteps([("1", "migrate", "[sh, -c, 'echo $$ > step.pid; touch started; exec sleep 30']")])

    @Test func fresh() throws {
        let work = try WorkDirectory()
        try work.write(Self.demo, to: "milepost.yaml")
        var transcript = try GoldenTranscript("fresh", in: work)
        try transcript.milepost("validate")
        try transcript.milepost("validate", "--format", "json")
        try transcript.milepost("validate", "--format", "github")
        try transcript.milepost("validate", "--strict")
        try transcript.milepost("plan", "--from", "1.0", "--to", "2.7")
        try transcript.milepost("plan", "--from", "1.0", "--to", "2.7", "--format", "json")
        try transcript.milepost("status")
        try transcript.milepost("status", "--format", "json")
        try transcript.milepost("status", "--to", "2.7", "--check")
        try transcript.milepost("history")
        try transcript.milepost("history", "--format", "json")
        try transcript.milepost("steps")
        try transcript.milepost("steps", "--format", "json")
        try transcript.milepost("run", "--to", "2.7", "--dry-run")
        try transcript.milepost("run", "--to", "2.1")
        let second = try transcript.milepost("run", "--to", "2.7", "--format", "json")
        try transcript.milepost("run", "--to", "2.7")
        try transcript.milepost("run", "--to", "2.1")
        try transcript.milepost("status", "--to", "2.7", "--check")
        try transcript.milepost("status", "--to", "3.0", "--format", "json")
        try transcript.milepost("plan", "--to", "3.0")
        try transcript.milepost("history")
        try transcript.milepost("history", "--limit", "2")
        let run = try #require(try JSONValue(parsing: second.stdout)["run"]?.string)
        try transcript.milepost("history", "--run", run, "--format", "json")
        try transcript.verify()
    }

    /// `plan` and `validate --format markdown`: what a reviewer reads in a job summary.
    @Test func markdown() throws {
        let work = try WorkDirectory()
        try work.write(Self.demo, to: "milepost.yaml")
        var transcript = try GoldenTranscript("markdown", in: work)
        try transcript.milepost("validate", "--format", "markdown")
        try transcript.milepost("plan", "--from", "1.0", "--to", "2.7", "--format", "markdown")
        try transcript.milepost("run", "--to", "2.1")
        // A step added below the stored version (never runs), and one with text that tries to break the table.
        try work.write(Self.demo + """

              2.0:
                - name: exec
                  id: late
                  with: {command: ['true']}
              2.5:
                - name: exec
                  id: totals
                  description: "Fix | totals <script>alert(1)</script> **now**\\n# heading"
                  timeout: 30s
                  retries: 1
                  with: {command: ['true']}
            """, to: "milepost.yaml")
        try transcript.milepost("plan", "--to", "3.0", "--format", "markdown")
        try transcript.milepost("plan", "--to", "2.0", "--format", "markdown")
        try work.write("migrations:\n  2.1:\n    - exce\n  two: [exec]\n", to: "milepost.yaml")
        try transcript.milepost("validate", "--format", "markdown")
        try transcript.verify()
    }

    @Test func invalid() throws {
        let work = try WorkDirectory()
        try work.write("""
            app: demo
            migrations:
              2.1:
                - exce
              2.10:
                - name: exec
                  with: {commnd: [ls]}
              2.1.0:
                - name: exec
                  timeout: soon
            """, to: "milepost.yaml")
        var transcript = try GoldenTranscript("invalid", in: work)
        try transcript.milepost("validate")
        try transcript.milepost("validate", "--format", "json")
        try transcript.milepost("validate", "--format", "github")
        try transcript.milepost("plan", "--from", "1", "--to", "3")
        try transcript.milepost("run", "--to", "3")
        try transcript.milepost("status", "--to", "3")
        try transcript.milepost("validate", "--manifest", "missing.yaml")
        try transcript.verify()
        #expect(!work.exists(".milepost"))
    }

    @Test func strictFailsOnWarnings() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  2: [{name: exec, with: {command: [\"true\"]}}]\n  1: [{name: exec, with: {command: [\"true\"]}}]\n", to: "milepost.yaml")
        var transcript = try GoldenTranscript("strict", in: work)
        try transcript.milepost("validate")
        try transcript.milepost("validate", "--strict")
        try transcript.milepost("validate", "--strict", "--format", "github")
        try transcript.milepost("validate", "--strict", "--format", "json")
        try transcript.verify()
    }

    @Test func failed() throws {
        let work = try WorkDirectory()
        try work.write(Self.execSteps([("1", "first", "['true']"), ("2", "breaks", "[sh, -c, 'echo boom >&2; exit 3']")]),
                       to: "app.yaml")
        var transcript = try GoldenTranscript("failed", in: work)
        try transcript.milepost("run", "--manifest", "app.yaml", "--to", "2")
        try transcript.milepost("status", "--manifest", "app.yaml", "--to", "2")
        try transcript.milepost("status", "--manifest", "app.yaml", "--to", "2", "--format", "json")
        try transcript.milepost("status", "--manifest", "app.yaml", "--to", "2", "--check")
        try transcript.milepost("status")
        try transcript.milepost("plan", "--manifest", "app.yaml", "--to", "2")
        try transcript.milepost("history")
        try transcript.milepost("run", "--manifest", "app.yaml", "--to", "2", "--format", "json")
        try transcript.milepost("run", "--manifest", "app.yaml", "--to", "2", "--format", "github")
        try transcript.milepost("status", "--manifest", "app.yaml", "--to", "2", "--format", "github")
        try transcript.verify()
    }

    @Test func interrupted() throws {
        let work = try WorkDirectory()
        try work.write(Self.blocking, to: "milepost.yaml")
        var transcript = try GoldenTranscript("interrupted", in: work)
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1", "--store", "state"])
        for _ in 0..<1000 where !work.exists("started") { usleep(10_000) }
        kill(process.processIdentifier, SIGKILL)
        work.killOrphanedStep()
        _ = MilepostBinary.finish(process, stdout, stderr)
        transcript.note("milepost run --to 1 --store state, killed with SIGKILL during its step")
        try transcript.milepost("status", "--to", "1", "--store", "state")
        try transcript.milepost("status", "--to", "1", "--store", "state", "--format", "json")
        try transcript.milepost("status", "--to", "1", "--store", "state", "--check")
        try transcript.milepost("plan", "--to", "1", "--store", "state")
        try transcript.milepost("plan", "--to", "1", "--store", "state", "--format", "json")
        try transcript.milepost("run", "--to", "1", "--store", "state")
        try transcript.milepost("run", "--to", "1", "--store", "state", "--format", "json")
        try transcript.milepost("history", "--store", "state")
        try transcript.milepost("resolve", "1/migrate", "--retry", "--store", "state")
        try transcript.milepost("status", "--to", "1", "--store", "state")
        try transcript.verify()
    }

    @Test func locked() throws {
        let work = try WorkDirectory()
        try work.write(Self.blocking, to: "milepost.yaml")
        var transcript = try GoldenTranscript("locked", in: work)
        let holderArguments = ["run", "--to", "1", "--termination-grace", "5s"]
        let (holder, stdout, stderr) = try work.milepost.start(holderArguments)
        var finished = false
        defer {
            if !finished {
                kill(holder.processIdentifier, SIGKILL)
                work.killOrphanedStep()
                _ = MilepostBinary.finish(holder, stdout, stderr)
            }
        }
        for _ in 0..<1000 where !work.exists("started") { usleep(10_000) }
        transcript.note("milepost run --to 1 started in the background; its step is running")
        try transcript.milepost("status", "--to", "1")
        try transcript.milepost("status", "--to", "1", "--format", "json")
        try transcript.milepost("status", "--to", "1", "--check")
        try transcript.milepost("plan", "--to", "1")
        try transcript.milepost("run", "--to", "1", "--lock-timeout", "300ms")
        transcript.note("SIGTERM to the background run")
        kill(holder.processIdentifier, SIGTERM)
        transcript.record(holderArguments, MilepostBinary.finish(holder, stdout, stderr))
        finished = true
        try transcript.milepost("status", "--to", "1")
        try transcript.milepost("history")
        try transcript.verify()
    }

    @Test func drift() throws {
        let work = try WorkDirectory()
        let (seed, index) = (("1", "seed", "[sh, -c, 'echo one']"), ("2", "index", "['true']"))
        try work.write(Self.execSteps([seed, index]), to: "milepost.yaml")
        var transcript = try GoldenTranscript("drift", in: work)
        try transcript.milepost("run", "--to", "2")
        try work.write(Self.execSteps([
            ("1", "seed", "[sh, -c, 'echo one, changed']"), ("1.5", "late", "['true']"), index, ("3", "next", "['true']"),
        ]), to: "milepost.yaml")
        transcript.note("milepost.yaml edited: 1/seed changed, 1.5/late added below the stored 2, 3/next added")
        try transcript.milepost("status", "--to", "3")
        try transcript.milepost("status", "--to", "3", "--format", "json")
        try transcript.milepost("plan", "--to", "3")
        try transcript.milepost("plan", "--to", "3", "--format", "json")
        try transcript.milepost("baseline", "2")
        try transcript.milepost("baseline", "2.5", "--force")
        try transcript.milepost("status", "--to", "3")
        try transcript.verify()
    }

    @Test func help() throws {
        let work = try WorkDirectory()
        var transcript = try GoldenTranscript("help", in: work)
        try transcript.milepost("--help")
        for command in ["validate", "plan", "run", "status", "history", "steps", "baseline", "resolve", "schema", "init", "new", "lock", "revert", "test"] {
            try transcript.milepost(command, "--help")
        }
        try transcript.verify()
    }
}
