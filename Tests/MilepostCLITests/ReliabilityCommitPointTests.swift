import Foundation
import Testing

/// A write that fails after the file store's commit point (the fdatasync of the commit's line in
/// `state.log`): the rename over `state.json`, or the journal append. The commit stands — every
/// reader reads the log first — so the run goes on and says so, instead of "could not be recorded"
/// with a `resolve --done` that then finds nothing to resolve.
///
/// The fault is injected for real, into the running binary: `strace` attaches to it while its first
/// step waits, and fails every such call from then on (`--inject`), as a failing disk would.
@Suite(.enabled(if: Strace.isInstalled, "strace is not installed (apt-get install strace)"))
struct ReliabilityCommitPointTests {
    /// `1.0/a` records its run and waits for the file `go`; `1.1/b` records its run.
    static let manifest = """
        migrations:
          "1.0":
            - {name: exec, id: a, with: {command: [sh, -c, 'echo a >> ran.txt; touch started; while [ ! -e go ]; do sleep 0.05; done']}}
          "1.1":
            - {name: exec, id: b, with: {command: [sh, -c, 'echo b >> ran.txt']}}
        """

    /// The calls that fail: every `renameat` of the run, or every `write` to its journal.
    enum Fault: String, CaseIterable {
        case stateRename, journalAppend

        func straceArguments(store: String) -> [String] {
            switch self {
            case .stateRename: ["-e", "trace=renameat", "-e", "inject=renameat:error=EIO"]
            case .journalAppend: ["-P", store + "/journal.jsonl", "-e", "trace=write", "-e", "inject=write:error=ENOSPC"]
            }
        }
    }

    @Test(arguments: Fault.allCases)
    func aFailureAfterTheCommitPointIsNotAFailureToRecord(fault: Fault) throws {
        let work = try WorkDirectory()
        try work.write(Self.manifest, to: "milepost.yaml")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1.1"])
        #expect(ReliabilityFixture.eventually { work.exists("started") })
        let tracer = Process()
        tracer.executableURL = URL(fileURLWithPath: Strace.path)
        tracer.arguments = ["-f", "-qq", "-o", work.path + "/strace.txt", "-p", String(process.processIdentifier)]
            + fault.straceArguments(store: work.path + "/.milepost")
        try tracer.run()
        #expect(ReliabilityFixture.eventually { Self.isTraced(process.processIdentifier, by: tracer.processIdentifier) })
        try work.write("", to: "go")
        let run = MilepostBinary.finish(process, stdout, stderr, within: .seconds(60))
        tracer.waitUntilExit()
        #expect(try work.read("strace.txt").contains("(INJECTED)"), "no fault was injected")

        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("could not record"), "\(run.stderr)")
        #expect(try work.read("ran.txt") == "a\nb\n")
        // What the store holds, before and after the next holder of the lock replays the log.
        let status = try ReliabilityFixture.object(try work.milepost.run("status", "--to", "1.1", "--format", "json").stdout)
        #expect(status["verdict"] as? String == "ok", "\(status)")
        let resolve = try work.milepost.run("resolve", "1.0/a", "--done")
        #expect(resolve.status == 64, "\(resolve.stderr)")
        #expect(!work.exists(".milepost/state.log"), "the lock's next holder replays the log")
        let state = try ReliabilityFixture.object(try work.read(".milepost/state.json"))
        #expect(state["version"] as? String == "1.1")
        #expect((state["completed"] as? [[String: Any]])?.map { $0["id"] as? String } == ["1.0/a", "1.1/b"])
        #expect(state["in_progress"] == nil)
        let events = try ReliabilityFixture.journal(in: work).map { "\($0["event"] ?? "") \($0["step"] ?? "")" }
        #expect(events == [
            "run-started ", "step-started 1.0/a", "step-succeeded 1.0/a", "step-started 1.1/b", "step-succeeded 1.1/b",
            "run-finished ",
        ])
        let again = try work.milepost.run("run", "--to", "1.1")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try work.read("ran.txt") == "a\nb\n")
    }

    /// True once every thread of `pid` is traced by `tracer`.
    static func isTraced(_ pid: Int32, by tracer: Int32) -> Bool {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"), !tasks.isEmpty else { return false }
        return tasks.allSatisfy { task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            return status.split(separator: "\n").contains("TracerPid:\t\(tracer)")
        }
    }
}

/// strace, which injects the faults.
enum Strace {
    static let path = "/usr/bin/strace"
    static let isInstalled = FileManager.default.isExecutableFile(atPath: path)
}
