import Testing

extension GoldenTests {
    /// A repeatable step (`repeat: on-change`) before and after its entry changes, beside a one-time
    /// step that drifted: what `plan`, `status` and `run` say (text and JSON).
    @Test func repeatable() throws {
        let work = try WorkDirectory()
        try work.write(RepeatableStepTests.manifest(), to: "milepost.yaml")
        var transcript = try GoldenTranscript("repeatable", in: work)
        try transcript.milepost("plan", "--to", "2.0")
        try transcript.milepost("run", "--to", "2.0")
        try work.write(RepeatableStepTests.manifest(viewWord: "view2", bWord: "b2"), to: "milepost.yaml")
        transcript.note("milepost.yaml edited: 1.0/view (repeatable) and 2.0/b (one-time) changed")
        try transcript.milepost("plan", "--to", "2.1")
        try transcript.milepost("plan", "--to", "2.1", "--format", "json")
        try transcript.milepost("status", "--to", "2.1")
        try transcript.milepost("status", "--to", "2.1", "--format", "json")
        try transcript.milepost("run", "--to", "2.1")
        try transcript.milepost("status", "--to", "2.1")
        try transcript.verify()
    }
}
