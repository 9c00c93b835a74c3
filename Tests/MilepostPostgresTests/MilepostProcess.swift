import Foundation

/// The built `milepost` binary (it sits next to the test bundle) run as a real child process,
/// with its stdout and stderr going to files in its working directory.
struct MilepostProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let path: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("milepost").path
    }()

    let process: Process
    private let stdoutPath: String
    private let stderrPath: String

    var pid: Int32 { process.processIdentifier }

    /// Starts `milepost arguments…` in `directory` without waiting for it.
    init(_ arguments: [String], in directory: String) throws {
        let name = UUID().uuidString
        stdoutPath = directory + "/\(name).out"
        stderrPath = directory + "/\(name).err"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: Self.path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("MILEPOST_") }
        environment["NO_COLOR"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the process to end.
    func wait() throws -> Result {
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: try String(contentsOfFile: stdoutPath, encoding: .utf8),
            stderr: try String(contentsOfFile: stderrPath, encoding: .utf8))
    }

    /// Runs `milepost arguments…` to completion.
    static func run(_ arguments: [String], in directory: String) throws -> Result {
        try MilepostProcess(arguments, in: directory).wait()
    }
}

/// A temporary directory for one test's manifest and files, removed afterwards.
final class TestDirectory: Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("milepost-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
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
        while ContinuousClock.now < deadline {
            if let text = read(name), text.hasSuffix("\n") { return text }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw NeverAppeared(name: name)
    }

    struct NeverAppeared: Error {
        var name: String
    }
}
