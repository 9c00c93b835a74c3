import Testing

extension GoldenTests {
    /// `milepost revert`: a dry run, the refusal when a step has no revert, a failed revert that
    /// leaves it unfinished, the run it refuses, and the revert finished (text and JSON).
    @Test func revert() throws {
        let work = try WorkDirectory()
        try work.write("""
            app: demo
            migrations:
              "2.1":
                - {name: exec, id: a, with: {command: [sh, -c, 'echo a >> ran.txt']}}
              "2.2":
                - name: exec
                  id: b
                  with: {command: [sh, -c, 'echo b >> ran.txt']}
                  revert: {command: [sh, -c, 'echo undo-b >> ran.txt']}
                - name: exec
                  id: c
                  with: {command: [sh, -c, 'echo c >> ran.txt']}
                  revert: {command: [sh, -c, '[ -e fixed ] || { echo "cannot drop c" >&2; exit 3; }; echo undo-c >> ran.txt']}
            """, to: "milepost.yaml")
        var transcript = try GoldenTranscript("revert", in: work)
        try transcript.milepost("run", "--to", "2.2")
        try transcript.milepost("revert", "--to", "2.0", "--dry-run")
        try transcript.milepost("revert", "--to", "2.0", "--dry-run", "--format", "json")
        try transcript.milepost("revert", "--to", "2.0")
        try transcript.milepost("revert", "--to", "3.0")
        try transcript.milepost("revert", "--to", "2.1")
        try transcript.milepost("run", "--to", "2.2")
        try transcript.milepost("run", "--to", "2.2", "--format", "json")
        try work.write("", to: "fixed")
        transcript.note("the cause fixed: touch fixed")
        try transcript.milepost("revert", "--to", "2.1", "--format", "json")
        try transcript.milepost("plan", "--to", "2.2")
        try transcript.milepost("run", "--to", "2.2")
        try transcript.milepost("revert", "--to", "2.1")
        try transcript.verify()
    }
}
