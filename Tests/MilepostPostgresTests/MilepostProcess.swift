import Foundation
import MilepostTestSupport

/// The built `milepost` binary (`MILEPOST_BINARY`, or the debug build) run as a real child process, its stdout
/// and stderr going to files in its working directory; tests read its exit status and stderr.
struct MilepostProcess {
    let process: Process
    private let stderrPath: String
    private let stdoutPath: String

    var pid: Int32 { process.processIdentifier }

    /// Starts `milepost arguments…` in `directory`, without the test's `MILEPOST_*` variables
    /// (with `environment` added), and does not wait for it.
    init(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws {
        let output = directory + "/milepost-" + UUID().uuidString
        stderrPath = output + ".err"
        stdoutPath = output + ".out"
        for path in [output + ".out", stderrPath] {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltExecutable.milepost)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
            .merging(environment) { $1 }
        process.standardOutput = FileHandle(forWritingAtPath: output + ".out")
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the process to end; returns its exit status and what it wrote on stderr.
    func wait() throws -> (status: Int32, stderr: String) {
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOfFile: stderrPath, encoding: .utf8))
    }

    /// What the process wrote on stdout so far.
    func stdout() throws -> String {
        try String(contentsOfFile: stdoutPath, encoding: .utf8)
    }

    /// Runs `milepost arguments…` to completion.
    static func run(_ arguments: [String], in directory: String) throws -> (status: Int32, stderr: String) {
        try MilepostProcess(arguments, in: directory).wait()
    }

    /// Waits for the process to end, polling, without holding a thread of the test's pool: the
    /// in-process tests beside it (a lease's heartbeat) keep running. Its status, stdout and stderr.
    func ended() async throws -> (status: Int32, stdout: String, stderr: String) {
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        let (status, stderr) = try wait()
        return (status, try stdout(), stderr)
    }

    /// Runs `milepost arguments…` to its end (`ended()`).
    static func outcome(_ arguments: [String], in directory: String) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await MilepostProcess(arguments, in: directory).ended()
    }
}

/// Polls `condition` every 10 ms for up to `limit`, without holding a thread of the test's pool:
/// a guard against hangs, never a timing assertion. False if it never held.
func eventually(within limit: Duration = .seconds(60), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// A fresh temporary directory (`mkdtemp`) for one test, removed with its content afterwards.
final class TestDirectory: Sendable {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/milepost-pg-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ text: String, to name: String) throws {
        try text.write(toFile: path + "/" + name, atomically: false, encoding: .utf8)
    }

    func read(_ name: String) -> String? {
        try? String(contentsOfFile: path + "/" + name, encoding: .utf8)
    }

    /// Polls until `name` exists and is not empty, for at most `limit`; returns its content.
    func waitFor(_ name: String, limit: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            // Looks once more after the deadline: a task starved of the pool past it (blocking tests
            // run beside this one) must still see a file that appeared meanwhile.
            let late = ContinuousClock.now >= deadline
            if let text = read(name), text.hasSuffix("\n") { return text }
            if late { throw NeverAppeared(name: name) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    struct NeverAppeared: Error {
        var name: String
    }
}
