import Testing

extension GoldenTests {
    /// Late steps under each policy, an orphan, a rename with `replaces:` and a required stop: what
    /// `plan`, `run`, `status` and `validate --store` say (text and JSON).
    @Test func upgradePaths() throws {
        let work = try WorkDirectory()
        let released: [(threshold: String, id: String, extra: String)] = [("2.1", "a", ""), ("2.2", "b", ""), ("2.2", "gone", "")]
        try work.write(LateStepTests.manifest(released), to: "milepost.yaml")
        var transcript = try GoldenTranscript("upgrade-paths", in: work)
        try transcript.milepost("run", "--to", "2.2")
        let hotfix: [(threshold: String, id: String, extra: String)] = [
            ("2.1", "a", ""), ("2.1.5", "hotfix", ""), ("2.2", "b", ""), ("2.3", "c", ""), ("2.4", "d", ""),
        ]
        try work.write(LateStepTests.manifest(hotfix, header: "stops: [\"2.3\"]\n"), to: "milepost.yaml")
        transcript.note("milepost.yaml edited: 2.1.5/hotfix added (late), 2.2/gone deleted (an orphan), 2.3 a required stop")
        try transcript.milepost("plan", "--to", "2.4")
        try transcript.milepost("plan", "--to", "2.4", "--format", "json")
        try transcript.milepost("plan", "--from", "2.0", "--from", "2.3", "--to", "2.4")
        try transcript.milepost("status", "--to", "2.4")
        try transcript.milepost("status", "--to", "2.4", "--format", "json")
        try transcript.milepost("validate", "--store", ".milepost")
        try transcript.milepost("validate", "--store", ".milepost", "--format", "json")
        try transcript.milepost("run", "--to", "2.4")
        try transcript.milepost("run", "--to", "2.4", "--format", "json")
        try transcript.milepost("run", "--to", "2.3")
        try work.write(LateStepTests.manifest(hotfix, header: "late: fail\n"), to: "milepost.yaml")
        transcript.note("milepost.yaml: late: fail, no stops")
        try transcript.milepost("plan", "--to", "2.4")
        try transcript.milepost("run", "--to", "2.4")
        try transcript.milepost("run", "--to", "2.4", "--format", "json")
        try work.write(LateStepTests.manifest(hotfix, header: "late: run\n"), to: "milepost.yaml")
        transcript.note("milepost.yaml: late: run")
        try transcript.milepost("plan", "--to", "2.4")
        try transcript.milepost("status", "--to", "2.4")
        try transcript.milepost("run", "--to", "2.4", "--dry-run")
        try transcript.milepost("run", "--to", "2.4")
        try transcript.verify()
    }
}

extension GoldenTests {
    /// `milepost lock` and `validate --locked` on an edited, a removed and an added step.
    @Test func lockFile() throws {
        let work = try WorkDirectory()
        try work.write(LateStepTests.manifest(ManifestLockTests.released), to: "milepost.yaml")
        var transcript = try GoldenTranscript("lock-file", in: work)
        try transcript.milepost("lock")
        try transcript.milepost("validate", "--locked")
        try work.write(LateStepTests.manifest([("2.1", "a", ""), ("2.2", "c", ""), ("2.3", "d", "")])
            .replacingOccurrences(of: "echo a", with: "echo A"), to: "milepost.yaml")
        transcript.note("milepost.yaml edited: 2.1/a changed, 2.1/b removed, 2.3/d added")
        try transcript.milepost("validate", "--locked")
        try transcript.milepost("validate", "--locked", "--format", "json")
        try transcript.milepost("validate", "--locked", "--format", "github")
        try transcript.verify()
    }
}
