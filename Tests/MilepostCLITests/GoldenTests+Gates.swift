import Testing

extension GoldenTests {
    /// The gates of issue 43: a rollback below the compatibility floor as `run`, `wait` and `status`
    /// refuse it (text and JSON); a newer release's steps in `status` and `validate --store`; what
    /// `plan --from` plans and the PR summary shows for a store at that version; the `next:` of
    /// waiting contract and background steps; a contract run ordered after the background steps;
    /// a new store, `--existing-store`, and an unknown `MILEPOST_*` variable.
    @Test func gates() throws {
        let work = try WorkDirectory()
        try work.write(GateTests.release1, to: "v1.yaml")
        try work.write(GateTests.release2, to: "v2.yaml")
        var transcript = try GoldenTranscript("gates", in: work)
        try transcript.milepost("run", "--manifest", "v1.yaml", "--to", "1.0", "--store", "s")
        try transcript.milepost("run", "--manifest", "v2.yaml", "--to", "2.0", "--store", "s")
        try transcript.milepost("status", "--manifest", "v2.yaml", "--to", "2.0", "--store", "s")
        try transcript.milepost("status", "--manifest", "v2.yaml", "--to", "2.0", "--store", "s", "--format", "json")
        try transcript.milepost("run", "--manifest", "v2.yaml", "--to", "2.0", "--store", "s", "--phase", "contract")
        transcript.note("a rollback to 1.0 after the contract step ran")
        try transcript.milepost("run", "--manifest", "v1.yaml", "--to", "1.0", "--store", "s")
        try transcript.milepost("run", "--manifest", "v1.yaml", "--to", "1.0", "--store", "s", "--format", "json")
        try transcript.milepost("wait", "--to", "1.0", "--store", "s")
        try transcript.milepost("wait", "--to", "1.0", "--store", "s", "--format", "json")
        try transcript.milepost("status", "--manifest", "v1.yaml", "--to", "1.0", "--store", "s", "--check")
        try transcript.milepost("status", "--manifest", "v1.yaml", "--to", "1.0", "--store", "s", "--format", "json")
        try transcript.milepost("validate", "--manifest", "v1.yaml", "--store", "s")

        try work.write(GateTests.release2 + """

              "2.3": [{name: exec, id: add-email, description: Add the email column, with: {command: ['true']}}]
            """, to: "v23.yaml")
        transcript.note("v23.yaml: 2.0's manifest and a 2.3 step; production is at 2.0, its contract step owed")
        try transcript.milepost("plan", "--manifest", "v23.yaml", "--from", "2.0", "--to", "2.3")
        try transcript.milepost("plan", "--manifest", "v23.yaml", "--from", "2.0", "--to", "2.3", "--format", "markdown")

        try work.write(GateTests.orderedRelease, to: "milepost.yaml")
        transcript.note("milepost.yaml: 2.0's contract step is ordered after its background step (after: background)")
        try transcript.milepost("run", "--to", "2.0")
        try transcript.milepost("status", "--to", "2.0")
        try transcript.milepost("plan", "--to", "2.0", "--phase", "contract")
        try transcript.milepost("run", "--to", "2.0", "--phase", "contract", "--lock-timeout", "1s")

        transcript.note("a store that does not exist")
        try transcript.milepost("status", "--store", "typo")
        try transcript.milepost("status", "--store", "typo", "--format", "json")
        try transcript.milepost("run", "--to", "2.0", "--store", "typo", "--existing-store")
        let arguments = ["status", "--store", "typo"]
        transcript.note("MILEPOST_PAHSE=contract")
        let misspelt = try MilepostBinary(directory: work.path, environment: ["MILEPOST_PAHSE": "contract"]).run(arguments)
        transcript.record(arguments, misspelt)
        try transcript.verify()
    }
}
