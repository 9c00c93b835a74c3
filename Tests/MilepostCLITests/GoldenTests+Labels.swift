import Testing

extension GoldenTests {
    /// Labelled steps and `when:` conditions: what `plan`, `run` and `status` say about the steps in
    /// and out of scope (text and JSON), a later run picking up what an earlier one left out, and a
    /// label expression that does not parse.
    @Test func labels() throws {
        let work = try WorkDirectory()
        try work.write("""
            app: demo
            migrations:
              "2.0":
                - {name: exec, id: seed, when: fresh-install, with: {command: [sh, -c, 'echo seed >> ran.txt']}}
                - {name: exec, id: convert, when: upgrade, with: {command: [sh, -c, 'echo convert >> ran.txt']}}
              "2.5":
                - {name: exec, id: eu-data, labels: [eu], with: {command: [sh, -c, 'echo eu-data >> ran.txt']}}
                - {name: exec, id: us-data, labels: us, with: {command: [sh, -c, 'echo us-data >> ran.txt']}}
              "3.0":
                - {name: exec, id: reindex, labels: [eu, heavy], with: {command: [sh, -c, 'echo reindex >> ran.txt']}}
                - {name: exec, id: notify, with: {command: [sh, -c, 'echo notify >> ran.txt']}}

            """, to: "milepost.yaml")
        var transcript = try GoldenTranscript("labels", in: work)
        try transcript.milepost("plan", "--to", "3.0", "--labels", "us or eu and not heavy")
        try transcript.milepost("run", "--to", "3.0", "--labels", "us")
        try transcript.milepost("plan", "--to", "3.0")
        try transcript.milepost("plan", "--to", "3.0", "--labels", "eu and not heavy", "--format", "json")
        try transcript.milepost("status", "--to", "3.0", "--labels", "not eu")
        try transcript.milepost("run", "--to", "3.0", "--labels", "eu and not heavy")
        try transcript.milepost("run", "--to", "3.0")
        try transcript.milepost("status", "--to", "3.0")
        try transcript.milepost("plan", "--from", "2.0", "--to", "3.0", "--labels", "eu and (heavy")
        try transcript.verify()
    }
}
