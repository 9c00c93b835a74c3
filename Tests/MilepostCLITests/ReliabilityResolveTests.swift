import Foundation
import Testing

/// `resolve` clears the mark of the step it names and nothing else.
@Suite struct ReliabilityResolveTests {
    /// `2.0/A` fails; the hotfix `1.5/B` (not idempotent) appends to `b.txt` and, while `hang`
    /// exists, hangs with its pid in `step.pid`.
    static let manifest = """
        migrations:
          1.5:
            - name: exec
              id: B
              with: {command: [sh, -c, 'echo x >> b.txt; if [ -e hang ]; then echo $$ > step.pid; touch started; exec sleep 300; fi']}
          2.0:
            - name: exec
              id: A
              with: {command: [sh, -c, 'exit 3']}
        """

    /// 2.0/A failed, then a hotfix run was killed inside 1.5/B: resolving A must leave B interrupted,
    /// so the next run stops at B instead of running it a second time.
    @Test func resolvingOneStepLeavesAnotherStepsInterruptedMark() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  2.0:\n    - {name: exec, id: A, with: {command: [sh, -c, 'exit 3']}}\n", to: "milepost.yaml")
        #expect(try work.milepost.run("baseline", "1.0").status == 0)
        let failed = try work.milepost.run("run", "--to", "2.0")
        #expect(failed.status == 1, "\(failed.stderr)")

        try work.write(Self.manifest, to: "milepost.yaml")
        try work.write("", to: "hang")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1.5"])
        defer {
            work.killOrphanedStep()
            _ = MilepostBinary.finish(process, stdout, stderr, within: .seconds(30))
        }
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        kill(process.processIdentifier, SIGKILL)
        #expect(ReliabilityFixture.eventually { ReliabilityFixture.isDead(process.processIdentifier) })
        try FileManager.default.removeItem(atPath: work.path + "/hang")

        let resolved = try work.milepost.run("resolve", "2.0/A", "--done")
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        let inProgress = try #require(state["in_progress"] as? [String: Any], "B's interrupted mark was cleared")
        #expect(inProgress["id"] as? String == "1.5/B")
        #expect(state["failed"] == nil)

        let next = try work.milepost.run("run", "--to", "2.0", "--lock-timeout", "0ms")
        #expect(next.status == 2, "\(next.stderr)")
        #expect(next.stderr.contains("step 1.5/B was interrupted"), "\(next.stderr)")
        #expect(try work.read("b.txt") == "x\n", "B ran a second time")
    }
}
