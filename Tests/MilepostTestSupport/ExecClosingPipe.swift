package import Foundation
import SystemPackage

/// A pipe whose two ends close on exec (`pipe2(O_CLOEXEC)`), for a child's stdout or stderr.
/// Foundation's `Pipe` leaves both ends open across exec: a child that another test starts
/// meanwhile inherits the write end of this test's pipe, and reading it to its end then waits for
/// that child — a step's `sleep 300` — which stalled the suite for five minutes. The child the
/// pipe is given to still gets it (the spawn's `dup2` onto 1 or 2 clears the flag); call
/// `closeWritingEnd()` once it started, so that its end is the pipe's end.
package final class ExecClosingPipe: Sendable {
    package let fileHandleForReading: FileHandle
    package let fileHandleForWriting: FileHandle

    package init() throws {
        let (readEnd, writeEnd) = try FileDescriptor.pipe(options: .closeOnExec)
        fileHandleForReading = FileHandle(fileDescriptor: readEnd.rawValue, closeOnDealloc: true)
        fileHandleForWriting = FileHandle(fileDescriptor: writeEnd.rawValue, closeOnDealloc: true)
    }

    /// Closes this process's copy of the write end (after the child started with it).
    package func closeWritingEnd() {
        try? fileHandleForWriting.close()
    }
}

extension Process {
    /// Starts the process with `stdout` and `stderr` (the same pipe for both, if so) as its
    /// output, then closes this process's write ends (`ExecClosingPipe`).
    package func run(stdout: ExecClosingPipe, stderr: ExecClosingPipe) throws {
        standardOutput = stdout.fileHandleForWriting
        standardError = stderr.fileHandleForWriting
        try run()
        stdout.closeWritingEnd()
        stderr.closeWritingEnd()
    }
}
