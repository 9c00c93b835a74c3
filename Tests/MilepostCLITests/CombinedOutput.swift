import Foundation
import MilepostTestSupport

/// Runs a tool (a linter or validator, not milepost) to completion with its stdout and stderr on one
/// pipe, so its report reads in the order it was written.
enum CombinedOutput {
    /// Runs `executable arguments…`, reading `input` when given (else inheriting the test's input);
    /// its exit status and its combined output.
    static func run(_ executable: String, _ arguments: [String], input: FileHandle? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let input { process.standardInput = input }
        let pipe = try ExecClosingPipe()
        try process.run(stdout: pipe, stderr: pipe)
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
