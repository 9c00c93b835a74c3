import Foundation
import MilepostTestSupport

/// Runs the built `milepost` executable as a real child process.
struct MilepostBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `MILEPOST_BINARY` when set (CI: the static release binary), else the debug build.
    static let path = BuiltExecutable.milepost

    var directory: String
    var environment: [String: String] = [:]
    /// A program that starts milepost, with its arguments: it is run as `launcher… milepost arguments…`
    /// (e.g. `env --ignore-signal=CHLD`, or `sh -c 'exec "$0" "$@" >&-'`). Empty: milepost itself.
    var launcher: [String] = []

    /// This binary launched by `sh -c script` in a private mount namespace, entered through a user
    /// namespace (`unshare --user --map-root-user --mount`): the script may mount, no root needed.
    /// `$1` is milepost, the run's arguments follow it (`exec "$@"` runs it).
    func inMountNamespace(_ script: String) -> MilepostBinary {
        var binary = self
        binary.launcher = ["/usr/bin/unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh"]
        return binary
    }

    /// Starts `milepost arguments…` in `directory` without waiting for it.
    func start(_ arguments: [String]) throws -> (process: Process, stdout: ExecClosingPipe, stderr: ExecClosingPipe) {
        let process = Process()
        let command = launcher + [Self.path] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
        env["NO_COLOR"] = "1"
        env.merge(environment) { _, new in new }
        process.environment = env
        let (stdout, stderr) = (try ExecClosingPipe(), try ExecClosingPipe())
        process.standardInput = FileHandle.nullDevice
        try process.run(stdout: stdout, stderr: stderr)
        return (process, stdout, stderr)
    }

    /// Runs `milepost arguments…` to completion.
    func run(_ arguments: String...) throws -> Result {
        try run(arguments)
    }

    func run(_ arguments: [String]) throws -> Result {
        let (process, stdout, stderr) = try start(arguments)
        return Self.finish(process, stdout, stderr)
    }

    /// Runs `milepost arguments…` to completion, waited for on a thread of its own rather than one
    /// of the test pool's: for a run that takes long (a crash test's trials), so that the
    /// timing-sensitive tests beside it (a lease's heartbeat, a kill mid-step) keep their threads.
    func outcome(_ arguments: [String]) async throws -> Result {
        let (process, stdout, stderr) = try start(arguments)
        return await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.finish(process, stdout, stderr)) }.start()
        }
    }

    static func finish(_ process: Process, _ stdout: ExecClosingPipe, _ stderr: ExecClosingPipe) -> Result {
        // Read both pipes concurrently so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = stderr.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1_000) }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A temporary working directory for one test, removed afterwards.
final class WorkDirectory: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("milepost-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ text: String, to name: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: false, encoding: .utf8)
    }

    func read(_ name: String) throws -> String {
        try String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + name) }

    var milepost: MilepostBinary { MilepostBinary(directory: path) }

    /// Kills the step process whose pid a test step wrote to `step.pid` (left behind by a kill -9 of
    /// milepost), and the rest of its process group.
    func killOrphanedStep() {
        guard let text = try? read("step.pid"), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return }
        kill(pid, SIGKILL)
        kill(-pid, SIGKILL)
    }
}
