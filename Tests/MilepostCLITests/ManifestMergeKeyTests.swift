import Foundation
import Testing

/// The YAML ops engineers already write, through the built binary: `x-…` anchor holders, merge keys
/// and one anchor shared by hundreds of steps.
@Suite struct ManifestMergeKeyTests {
    /// 500 steps, each merging one step default and aliasing one `with:` (1,000 aliases; the old
    /// count limit refused the 101st), load and run in order. The run (500 children, 1,000
    /// checkpoints) is waited for on a thread of its own, so the test pool stays free for the
    /// suites that run beside it.
    @Test func fiveHundredStepsSharingOneAnchorLoadAndRun() async throws {
        let work = try WorkDirectory()
        var manifest = """
            x-step: &step {name: exec, retries: 0, idempotent: true}
            x-with: &with {command: [sh, -c, 'echo "$MILEPOST_STEP" >> ran.txt']}
            migrations:
              1.0:

            """
        for number in 1...500 { manifest += "    - {<<: *step, id: s\(number), with: *with}\n" }
        try work.write(manifest, to: "milepost.yaml")
        let validate = try work.milepost.run("validate")
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.contains("ok, 500 steps"), "\(validate.stdout)")
        let run = try await Self.offThePool { try work.milepost.run("run", "--to", "1.0") }
        #expect(run.status == 0, "\(run.stderr)")
        let ran = try String(contentsOfFile: work.path + "/ran.txt", encoding: .utf8)
        #expect(ran == (1...500).map { "1.0/s\($0)\n" }.joined())
        let again = try work.milepost.run("run", "--to", "1.0")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: work.path + "/ran.txt", encoding: .utf8) == ran)
    }

    /// Runs `body` (a blocking wait for a child) on a new thread instead of a test-pool thread.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    @Test func explicitKeysWinAndEarlierMergesWinOverLaterOnes() throws {
        let work = try WorkDirectory()
        try work.write("""
            x-a: &a {command: [sh, -c, 'echo a >> ran.txt']}
            x-b: &b {command: [sh, -c, 'echo b >> ran.txt'], env: {WHO: b}}
            migrations:
              1.0:
                - name: exec
                  id: first
                  with: {<<: [*a, *b]}
                - name: exec
                  id: second
                  with: {<<: [*b, *a]}
                - name: exec
                  id: third
                  with:
                    <<: *b
                    command: [sh, -c, 'echo "third $WHO" >> ran.txt']
            """, to: "milepost.yaml")
        let run = try work.milepost.run("run", "--to", "1.0")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: work.path + "/ran.txt", encoding: .utf8) == "a\nb\nthird b\n")
    }

    /// An error inside merged or aliased content is located at the anchor, with a note at the use.
    @Test func errorsInMergedContentPointAtTheAnchorAndTheUse() throws {
        let work = try WorkDirectory()
        try work.write("""
            x-defaults: &step {name: exec, timeout: soon}
            x-with: &with {command: [sh, -c, 'true'], comand: 1}
            migrations:
              1.0:
                - <<: *step
                  id: a
                  with: *with
            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 65)
        #expect(result.stderr.contains("""
            milepost.yaml:1:41: error: invalid timeout 'soon': expected numbers with units (ms, s, m, h, d), e.g. 30s, 1h30m or 1.5h
            1 | x-defaults: &step {name: exec, timeout: soon}
              |                                         ^
            milepost.yaml:5:11: note: merged here
            """), "\(result.stderr)")
        #expect(result.stderr.contains("milepost.yaml:2:43: error: step 'exec': unknown parameter 'comand'"), "\(result.stderr)")
        #expect(result.stderr.contains("milepost.yaml:7:13: note: used here"), "\(result.stderr)")
    }

    @Test func onlyTopLevelXKeysAreIgnored() throws {
        let work = try WorkDirectory()
        try work.write("""
            x-anything: {whatever: [1, 2]}
            migrations:
              1.0: [{name: exec, x-note: hi, with: {command: ["true"]}}]
            """, to: "milepost.yaml")
        let result = try work.milepost.run("validate")
        #expect(result.status == 65)
        #expect(result.stderr.contains("milepost.yaml:3:22: error: unknown key 'x-note' in a step"), "\(result.stderr)")
        #expect(!result.stderr.contains("x-anything"), "\(result.stderr)")
    }
}
