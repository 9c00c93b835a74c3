import Foundation
@testable import Milepost
import MilepostSystem
import SystemPackage
import Testing

/// examples/hooks/entrypoint.sh with the real binary: it runs milepost, then becomes the service; it
/// never starts the service after a failure; it forwards SIGTERM so the step is journaled as interrupted.
@Suite struct EntrypointExampleTests {
    static let script = JSONSchema.repository.appendingPathComponent("examples/hooks/entrypoint.sh").path

    /// Runs `entrypoint.sh service…` in `work` with the built milepost first on PATH; calls `whileRunning`
    /// with its pid. It is spawned with no blocked signals, as a container runtime starts PID 1
    /// (a test runner's threads may block SIGCHLD and SIGTERM, and a shell inherits that mask).
    static func run(in work: WorkDirectory, service: [String], whileRunning: (pid_t) -> Void = { _ in }) throws -> Int32 {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
        let binaries = URL(fileURLWithPath: MilepostBinary.path).deletingLastPathComponent().path
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["MILEPOST_TO"] = "2"
        let log = open(work.path + "/entrypoint.log", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(log) }
        let pid = try Spawn.launch([script] + service, environment: environment, directory: work.path, stderr: FileDescriptor(rawValue: log))
        whileRunning(pid)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
    }

    @Test func runsMilepostThenExecsTheService() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  2: [{name: exec, with: {command: [touch, migrated]}}]\n", to: "milepost.yaml")
        var entrypoint: pid_t = 0
        let status = try Self.run(in: work, service: ["sh", "-c", #"test -e migrated && echo $$ > service.pid"#]) { entrypoint = $0 }
        #expect(status == 0, "\((try? work.read("entrypoint.log")) ?? "")")
        #expect(try work.read("service.pid") == "\(entrypoint)\n", "the service replaced the entrypoint's process")
    }

    @Test func aFailedStepKeepsTheServiceFromStarting() throws {
        let work = try WorkDirectory()
        try work.write("migrations:\n  2: [{name: exec, with: {command: [sh, -c, 'exit 3']}}]\n", to: "milepost.yaml")
        let status = try Self.run(in: work, service: ["touch", "service-started"])
        #expect(status == 1)
        #expect(!work.exists("service-started"))
    }

    @Test func sigtermReachesMilepostWhileItRuns() throws {
        let work = try WorkDirectory()
        try work.write("""
            migrations:
              2: [{name: exec, with: {command: [sh, -c, 'echo $$ > step.pid; touch started; exec sleep 30']}}]
            """, to: "milepost.yaml")
        let status = try Self.run(in: work, service: ["touch", "service-started"]) { entrypoint in
            for _ in 0..<1000 where !work.exists("started") { usleep(10_000) }
            kill(entrypoint, SIGTERM)
        }
        #expect(status == 143, "\((try? work.read("entrypoint.log")) ?? "")")
        #expect(!work.exists("service-started"))
        #expect(try work.read(".milepost/journal.jsonl").contains(#""event":"step-interrupted""#))
    }
}
