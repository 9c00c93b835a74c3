import Testing

extension GoldenTests {
    /// What a newcomer meets in the first ten minutes: no manifest yet (pointed at `init`), a
    /// misspelt command, a step name that is not registered (pointed at `-- COMMAND`), a version
    /// that is not one (with the reason), `status` listing every step, and `resolve` of a
    /// misspelt step id: one error prefix, the command's own usage, "did you mean" as in manifests.
    @Test func firstMinutes() throws {
        let work = try WorkDirectory()
        var transcript = try GoldenTranscript("first-minutes", in: work)
        try transcript.milepost("run", "--to", "1.0")
        try transcript.milepost("stauts")
        try transcript.milepost("init")
        try transcript.milepost("new", "0.2", "cleanupOld")
        try transcript.milepost("new", "0.2", "exce")
        try transcript.milepost("new", "0.2", "cleanup", "--", "echo", "cleaned")
        try transcript.milepost("new", "0.3", "breaks", "--", "sh", "-c", "exit 3")
        try transcript.milepost("run", "--to", "2.x")
        try transcript.milepost("plan", "--from", "0..1", "--to", "0.3")
        try transcript.milepost("run", "--to", "0.2")
        try transcript.milepost("status", "--to", "0.3")
        try transcript.milepost("resolve", "0.2/claenup", "--done")
        try transcript.milepost("run", "--to", "0.3")
        try transcript.milepost("resolve", "0.3/braeks", "--retry")
        try transcript.verify()
    }
}
