import Testing

extension GoldenTests {
    /// What a newcomer meets in the first ten minutes: no manifest yet (pointed at `init`), a
    /// misspelt command, a step name that is not registered (pointed at `-- COMMAND`), a version
    /// that is not one (with the reason), `status` listing every step, and `resolve` of a
    /// misspelt step id: one error prefix, the command's own usage, "did you mean" as in manifests.
    @Test func firstMinutes() async throws {
        let work = try WorkDirectory()
        var transcript = try GoldenTranscript("first-minutes", in: work)
        try await transcript.milepost("run", "--to", "1.0")
        try await transcript.milepost("stauts")
        try await transcript.milepost("init")
        try await transcript.milepost("new", "0.2", "cleanupOld")
        try await transcript.milepost("new", "0.2", "exce")
        try await transcript.milepost("new", "0.2", "cleanup", "--", "echo", "cleaned")
        try await transcript.milepost("new", "0.3", "breaks", "--", "sh", "-c", "exit 3")
        try await transcript.milepost("run", "--to", "2.x")
        try await transcript.milepost("plan", "--from", "0..1", "--to", "0.3")
        try await transcript.milepost("run", "--to", "0.2")
        try await transcript.milepost("status", "--to", "0.3")
        try await transcript.milepost("resolve", "0.2/claenup", "--done")
        try await transcript.milepost("run", "--to", "0.3")
        try await transcript.milepost("resolve", "0.3/braeks", "--retry")
        try transcript.verify()
    }
}
