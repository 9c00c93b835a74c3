import Foundation
import Testing

/// What people and CI logs see while a run goes on, and the shell integration ArgumentParser provides.
@Suite struct RunProgressTests {
    /// With stderr not a terminal, a long step prints a heartbeat line every 10 s. The step itself waits
    /// until the heartbeat reaches the log, so the test asserts an order of events, not a duration.
    @Test func aLongStepPrintsAHeartbeatWhenStderrIsNotATerminal() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              1:
                - name: exec
                  id: long
                  with: {command: [sh, -c, 'until grep -q "still running" progress.log; do sleep 0.2; done']}
            """, to: "milepost.yaml")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #"exec "$0" run --to 1 2>progress.log"#, MilepostBinary.path]
        shell.currentDirectoryURL = URL(fileURLWithPath: work.path)
        shell.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let log = try work.read("progress.log")
        let lines = log.split(separator: "\n").map(String.init)
        #expect(lines.first == "[1/1] 1/long …", "\(log)")
        #expect(lines.contains { $0.hasPrefix("[1/1] 1/long still running, 1") }, "\(log)")
        #expect(lines.contains { $0.hasPrefix("[1/1] 1/long ok in ") }, "\(log)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) throws {
        let work = try WorkDirectory()
        let result = try work.milepost.run("--generate-completion-script", shell)
        #expect(result.status == 0, "\(result.stderr)")
        for command in ["validate", "plan", "run", "status", "history", "steps", "baseline", "resolve"] {
            #expect(result.stdout.contains(command), "\(shell) completion lacks \(command)")
        }
        #expect(result.stdout.contains("lock-timeout"))
    }
}
