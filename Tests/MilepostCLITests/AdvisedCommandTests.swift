import Foundation
import Testing

/// Every `milepost …` command that Milepost's messages advise runs as printed: pasted into a shell,
/// it is accepted by the parser (no option its command lacks), reaches the same store, and never
/// shows the store's password (issue 25, items 13 and 14).
@Suite struct AdvisedCommandTests {
    /// The manifest under `conf/`: 1/first succeeds, 2/breaks fails.
    static let failing = """
        app: demo
        migrations:
          1: [{name: exec, id: first, with: {command: ['true']}}]
          2: [{name: exec, id: breaks, with: {command: [sh, -c, 'exit 3']}}]

        """

    /// Each backquoted `milepost …` of `text`.
    static func advised(in text: String) -> [String] {
        text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 && $0.element.hasPrefix("milepost ") }.map(\.element)
    }

    /// Runs `command` as printed by `sh` in `work` (placeholders VERSION and ID filled in), with the
    /// binary under test first on PATH, and checks its parser accepted it.
    static func runAsPrinted(_ command: String, in work: WorkDirectory) throws {
        let filled = command.replacingOccurrences(of: " VERSION", with: " 1").replacingOccurrences(of: " ID", with: " 2/breaks")
        let bin = work.path + "/bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: bin + "/milepost") {
            try FileManager.default.createSymbolicLink(atPath: bin + "/milepost", withDestinationPath: MilepostBinary.path)
        }
        let shell = MilepostBinary(
            directory: work.path, environment: ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")],
            launcher: ["/bin/sh", "-c", filled, "sh"])
        let result = try shell.run([])
        // Refused by the parser: "Error: Unknown option '--manifest'" and the usage (a refusal by the
        // store, such as "nothing to resolve" after an earlier advised command, is not one).
        #expect(!result.stderr.contains("Usage:"), "`\(filled)` was refused: \(result.stderr)")
    }

    @Test(arguments: [
        ["--manifest", "conf/app.yaml", "--store", "st"],
        ["--manifest", "conf/app.yaml"],
        ["--store", "st"],
    ])
    func everyAdvisedCommandRunsAsPrinted(location: [String]) throws {
        let work = try WorkDirectory()
        try work.write(Self.failing, to: "conf/app.yaml")
        try work.write(Self.failing, to: "milepost.yaml")
        var printed: [String] = []
        // An empty store: status advises a baseline.
        let empty = try work.milepost.run(["status", "--to", "2"] + location)
        printed += Self.advised(in: empty.stdout)
        // A failed step: run, status (text and JSON) and plan advise resolve, run and status.
        let run = try work.milepost.run(["run", "--to", "2"] + location)
        #expect(run.status == 1, "\(run.stderr)")
        printed += Self.advised(in: run.stderr)
        for format in ["text", "json"] {
            printed += Self.advised(in: try work.milepost.run(["status", "--to", "2", "--format", format] + location).stdout)
        }
        printed += Self.advised(in: try work.milepost.run(["plan", "--to", "2"] + location).stdout)
        #expect(printed.contains { $0.hasPrefix("milepost resolve 2/breaks --done") }, "\(printed)")
        #expect(printed.contains { $0.hasPrefix("milepost baseline") }, "\(printed)")
        for command in Set(printed).sorted() {
            #expect(!command.contains("--manifest") || !command.hasPrefix("milepost resolve"))
            try Self.runAsPrinted(command, in: work)
        }
        // The advised resolve and run reached the store the run used: it is at 2.
        let after = try work.milepost.run(["status", "--to", "2", "--check"] + location)
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
    }

    /// A running step: status advises `history --run`, which `history` accepts.
    @Test func theHistoryOfARunningStepIsAdvisedAsItRuns() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  1: [{name: exec, id: migrate, with: {command: [sh, -c, 'echo $$ > step.pid; touch started; exec sleep 30']}}]\n", to: "conf/app.yaml")
        let (process, stdout, stderr) = try work.milepost.start(["run", "--to", "1", "--manifest", "conf/app.yaml"])
        defer {
            kill(process.processIdentifier, SIGKILL)
            work.killOrphanedStep()
            _ = MilepostBinary.finish(process, stdout, stderr)
        }
        for _ in 0..<1000 where !work.exists("started") { usleep(10_000) }
        let status = try work.milepost.run("status", "--to", "1", "--manifest", "conf/app.yaml")
        let history = Self.advised(in: status.stdout).filter { $0.hasPrefix("milepost history --run") }
        #expect(history.count == 1, "\(status.stdout)")
        for command in history {
            #expect(command.hasSuffix("--store conf/.milepost"), "\(command)")
            try Self.runAsPrinted(command, in: work)
        }
    }
}
