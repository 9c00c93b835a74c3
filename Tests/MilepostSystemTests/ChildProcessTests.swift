import Foundation
import Glibc
import Synchronization
import SystemPackage
import Testing

@testable import MilepostSystem

@Suite struct ChildProcessTests {
    private let environment = ["PATH": "/usr/bin:/bin"]
    private let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func run(
        _ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil,
        killGrace: Duration = .seconds(30), stderrTailBytes: Int = 4096
    ) async throws -> ChildProcess.Result {
        try await ChildProcess.run(
            arguments, environment: environment ?? self.environment, directory: directory ?? self.directory.path,
            killGrace: StopGrace(killGrace), stderrTailBytes: stderrTailBytes)
    }

    // MARK: - Termination

    @Test func successIsExitStatusZero() async throws {
        #expect(try await run(["/bin/true"]).termination == .exited(0))
    }

    @Test func reportsTheExitStatus() async throws {
        #expect(try await run(["/bin/sh", "-c", "exit 3"]).termination == .exited(3))
    }

    @Test func reportsTheKillingSignal() async throws {
        #expect(try await run(["/bin/sh", "-c", "kill -KILL $$"]).termination == .signalled(SIGKILL))
    }

    /// Captured (`milepost test`'s children), the stdout is kept whole up to its limit and the
    /// stderr's tail kept; the stdout of a copied child is not kept.
    @Test func capturedOutputIsKeptUpToItsLimit() async throws {
        let script = "printf 'one\\ntwo\\n'; echo oops >&2"
        let captured = try await ChildProcess.run(
            ["/bin/sh", "-c", script], environment: environment, directory: directory.path, killGrace: StopGrace(.seconds(30)),
            output: .captured(limit: 1 << 20))
        #expect(captured.stdout == "one\ntwo\n")
        #expect(captured.stderrTail == "oops")
        let cut = try await ChildProcess.run(
            ["/bin/sh", "-c", script], environment: environment, directory: directory.path, killGrace: StopGrace(.seconds(30)),
            output: .captured(limit: 5))
        #expect(cut.stdout == "one\nt")
        #expect(try await run(["/bin/sh", "-c", script]).stdout == "")
    }

    @Test func terminationDescriptions() {
        #expect(ChildProcess.Termination.exited(3).description == "exit status 3")
        #expect(ChildProcess.Termination.signalled(SIGKILL).description == "signal 9 (Killed)")
    }

    // MARK: - Output

    @Test func keepsTheTrimmedStderrTail() async throws {
        let result = try await run(["/bin/sh", "-c", "echo; echo line1 >&2; echo line2 >&2"])
        #expect(result.stderrTail == "line1\nline2")
    }

    @Test func keepsOnlyTheLastBytesOfStderr() async throws {
        let script = "head -c 3000 /dev/zero | tr '\\0' x >&2; printf END >&2"
        let result = try await run(["/bin/sh", "-c", script], stderrTailBytes: 10)
        #expect(result.stderrTail == "xxxxxxxEND")
    }

    @Test func dropsACharacterCutByTheTailLimit() async throws {
        let result = try await run(["/bin/sh", "-c", "printf 'ééé' >&2"], stderrTailBytes: 3)
        #expect(result.stderrTail == "é")
    }

    /// Redirects this process's stderr for a moment.
    @Test func childStdoutAndStderrGoToOurStderr() async throws {
        let capture = directory.path + "/stderr"
        let file = open(capture, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let saved = dup(2)
        dup2(file, 2)
        let result = try await run(["/bin/sh", "-c", "echo to-stdout; echo to-stderr >&2"])
        dup2(saved, 2)
        close(saved)
        close(file)
        let captured = try String(contentsOfFile: capture, encoding: .utf8)
        #expect(result.termination == .exited(0))
        #expect(captured.contains("to-stdout\n"))
        #expect(captured.contains("to-stderr\n"))
    }

    // MARK: - Environment, directory, PATH

    @Test func environmentIsExactlyTheOneGiven() async throws {
        let given = ["PATH": "/usr/bin:/bin", "MILEPOST_STEP": "2.1/x", "EMPTY": "", "SPACED": "a b=c"]
        // /proc/PID/environ is the environment the shell was executed with.
        _ = try await run(["/bin/sh", "-c", "cat /proc/$$/environ > environ"], environment: given)
        let written = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/environ"))
        let entries = written.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(Set(entries) == ["PATH=/usr/bin:/bin", "MILEPOST_STEP=2.1/x", "EMPTY=", "SPACED=a b=c"])
        #expect(entries.count == 4)
    }

    @Test func runsInTheGivenDirectory() async throws {
        let inner = directory.path + "/inner"
        mkdir(inner, 0o700)
        _ = try await run(["/bin/sh", "-c", "pwd -P > here"], in: inner)
        let written = try String(contentsOfFile: inner + "/here", encoding: .utf8)
        #expect(written == URL(fileURLWithPath: inner).resolvingSymlinksInPath().path + "\n")
    }

    @Test func findsTheProgramInTheGivenPath() async throws {
        let bin = directory.path + "/bin"
        mkdir(bin, 0o700)
        // A link, not a script written here: a child spawned meanwhile could hold the script
        // open for writing and make its exec fail with ETXTBSY.
        symlink("/bin/sh", bin + "/milepost-test-tool")
        let result = try await run(["milepost-test-tool", "-c", "echo found > marker"], environment: ["PATH": "/nonexistent:" + bin])
        #expect(result.termination == .exited(0))
        #expect(try String(contentsOfFile: directory.path + "/marker", encoding: .utf8) == "found\n")
    }

    @Test func findsTheProgramInOurPathWhenNoneIsGiven() async throws {
        #expect(try await run(["true"], environment: [:]).termination == .exited(0))
    }

    // MARK: - Spawn errors

    @Test func missingProgram() async throws {
        let error = await #expect(throws: ChildProcess.SpawnError.self) {
            try await run(["milepost-no-such-program"])
        }
        #expect(error == .program("milepost-no-such-program", errno: .noSuchFileOrDirectory))
        #expect(error?.description == "cannot run 'milepost-no-such-program': No such file or directory")
    }

    @Test func missingProgramPath() async throws {
        await #expect(throws: ChildProcess.SpawnError.program("/nonexistent/tool", errno: .noSuchFileOrDirectory)) {
            try await run(["/nonexistent/tool"])
        }
    }

    @Test func programThatIsNotExecutable() async throws {
        let bin = directory.path + "/bin"
        mkdir(bin, 0o700)
        try "echo\n".write(toFile: bin + "/plain", atomically: true, encoding: .utf8)
        await #expect(throws: ChildProcess.SpawnError.program("plain", errno: .permissionDenied)) {
            try await run(["plain"], environment: ["PATH": bin])
        }
    }

    @Test func emptyCommand() async throws {
        await #expect(throws: ChildProcess.SpawnError.program("", errno: .noSuchFileOrDirectory)) {
            try await run([])
        }
    }

    @Test func missingDirectory() async throws {
        let error = await #expect(throws: ChildProcess.SpawnError.self) {
            try await run(["/bin/true"], in: "/nonexistent/dir")
        }
        #expect(error == .directory("/nonexistent/dir", errno: .noSuchFileOrDirectory))
        #expect(error?.description == "cannot run in directory '/nonexistent/dir': No such file or directory")
    }

    @Test func directoryThatIsAFile() async throws {
        await #expect(throws: ChildProcess.SpawnError.directory("/bin/sh", errno: .notDirectory)) {
            try await run(["/bin/true"], in: "/bin/sh")
        }
    }

    // MARK: - Cancellation

    @Test func cancelledTaskSpawnsNothing() async throws {
        // The child would ignore SIGTERM and leave a marker, had it been spawned.
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await run(["/bin/sh", "-c", "trap '' TERM; touch marker"], killGrace: .seconds(5))
        }
        let outcome = try #require(await outcome(of: task))
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(access(directory.path + "/marker", F_OK) == -1)
    }

    @Test func cancellationEndsTheWholeProcessGroup() async throws {
        let script = "sleep 100 & echo $$ $! > pids.tmp && mv pids.tmp pids; wait"
        let task = Task { try await run(["/bin/sh", "-c", script], killGrace: .seconds(30)) }
        let pids = try #require(await eventually { try? String(contentsOfFile: directory.path + "/pids", encoding: .utf8) })
            .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(pids.count == 2)
        task.cancel()
        // Within 10 s: SIGTERM ended it, not the SIGKILL due after 30 s.
        let outcome = try #require(await outcome(of: task))
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(await eventually { isGone(pids[0]) ? true : nil } == true, "the shell")
        #expect(await eventually { isGone(pids[1]) ? true : nil } == true, "its background sleep")
    }

    @Test func cancellationEscalatesToSIGKILL() async throws {
        let script = "trap '' TERM; touch started; sleep 100; true"
        let task = Task { try await run(["/bin/sh", "-c", script], killGrace: .milliseconds(300)) }
        try #require(await eventually { access(directory.path + "/started", F_OK) == 0 ? true : nil } == true)
        let start = ContinuousClock.now
        task.cancel()
        let outcome = try #require(await outcome(of: task))
        #expect(ContinuousClock.now - start >= .milliseconds(300), "SIGKILL waits for the grace")
        #expect(throws: CancellationError.self) { try outcome.get() }
    }
}

/// A fresh directory under /tmp, removed when the value goes away.
private final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array("/tmp/milepost-test-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Polls `probe` every 20 ms for up to 10 s; its first non-nil value.
private func eventually<T>(_ probe: () -> T?) async -> T? {
    for _ in 0..<500 {
        if let value = probe() { return value }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return nil
}

/// How `task` ended, or nil if it is still running after 10 s.
private func outcome<T: Sendable>(of task: Task<T, any Error>) async -> Result<T, any Error>? {
    let ended = Mutex<Result<T, any Error>?>(nil)
    Task {
        let result = await task.result
        ended.withLock { $0 = result }
    }
    return await eventually { ended.withLock { $0 } }
}

/// Whether `pid` is gone: no such process, or a zombie (dead, waiting for a parent to reap it).
private func isGone(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return errno == ESRCH }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(end, offsetBy: 2)] == "Z"
}
