import Dispatch
import Foundation
import Glibc
import Synchronization
import SystemPackage

/// Watches a spawned child from two dedicated threads, so the cooperative pool never blocks:
/// one copies the child's stderr to ours and keeps its tail, the other reaps the child.
///
/// The child's process group is signalled only while the leader is unreaped: the zombie keeps
/// its pid, and so the group id, from being recycled.
final class ChildWatch: Sendable {
    /// How long to wait, after the leader exited, for the rest of its stderr: a background
    /// process that inherited the pipe may hold it open indefinitely.
    private static let outputGrace: Duration = .seconds(1)

    private struct State {
        var continuation: CheckedContinuation<ChildProcess.Result, any Error>?
        var outcome: Result<ChildProcess.Result, any Error>?
        var tail: [UInt8] = []
        var reaped = false
        /// Set by `cancel`: when the group gets SIGKILL if the leader is still unreaped.
        var killDeadline: DispatchTime?
    }

    private let pid: pid_t
    private let tailLimit: Int
    /// Masks secrets in what is copied and in the tail.
    private let redactor: Redactor
    private let state = Mutex(State())
    /// Signalled once per output pipe when it reaches its end.
    private let endOfOutput = DispatchSemaphore(value: 0)
    private let outputs: Int
    private let control: ChildControl?

    /// Starts watching `pid`, reading its stderr from `stderr` and, when given, its stdout from
    /// `stdout` (the watch closes both); both are copied to our stderr with `redactor`'s secrets
    /// masked, the stderr's tail kept.
    /// With `control`, its lines are read from `controlInput` (closed at its end too).
    init(
        pid: pid_t, stderr: FileDescriptor, stdout: FileDescriptor?, tailLimit: Int, redactor: Redactor,
        control: (ChildControl, input: FileDescriptor)? = nil
    ) {
        self.pid = pid
        self.tailLimit = max(0, tailLimit)
        self.redactor = redactor
        self.outputs = (stdout == nil ? 1 : 2) + (control == nil ? 0 : 1)
        self.control = control?.0
        Thread { self.copyOutput(from: stderr, keepingTail: true) }.start()
        if let stdout { Thread { self.copyOutput(from: stdout, keepingTail: false) }.start() }
        if let (control, input) = control {
            Thread {
                control.readLines(from: input)
                self.endOfOutput.signal()
            }.start()
        }
        Thread { self.reap() }.start()
    }

    /// Waits for the child (call once); throws `CancellationError` if `cancel` came first.
    func result() async throws -> ChildProcess.Result {
        try await withCheckedThrowingContinuation { continuation in
            let outcome = state.withLock { state in
                if state.outcome == nil { state.continuation = continuation }
                return state.outcome
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// Sends SIGTERM to the child's process group now and SIGKILL after `killGrace`,
    /// unless the child has been reaped by then.
    func cancel(killGrace: Duration) {
        let deadline = Self.deadline(after: killGrace)
        let first = state.withLock { state in
            guard state.killDeadline == nil, !state.reaped else { return false }
            state.killDeadline = deadline
            return true
        }
        guard first else { return }
        signalGroup(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: deadline) { self.signalGroup(SIGKILL) }
    }

    private func signalGroup(_ signal: Int32) {
        state.withLock { state in
            if !state.reaped { _ = kill(-pid, signal) }
        }
    }

    /// Copies `descriptor` to our stderr until its end; the copy goes on when our stderr is
    /// gone, so the child never blocks on a full pipe.
    private func copyOutput(from descriptor: FileDescriptor, keepingTail: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var redactor = self.redactor
        var lines = StandardStream.Lines()
        func copy(_ chunk: ArraySlice<UInt8>) {
            lines.write(chunk)
            guard keepingTail else { return }
            state.withLock { state in
                state.tail.append(contentsOf: chunk)
                if state.tail.count > tailLimit { state.tail.removeFirst(state.tail.count - tailLimit) }
            }
        }
        while true {
            // `read` retries on EINTR; any other failure ends the copy as the end of file does.
            let count = (try? buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }) ?? 0
            guard count > 0 else { break }
            if redactor.isEmpty {
                copy(buffer[..<count])
            } else {
                copy(redactor.feed(buffer[..<count])[...])
            }
        }
        if !redactor.isEmpty { copy(redactor.finish()[...]) }
        lines.finish()
        try? descriptor.close()
        endOfOutput.signal()
    }

    private func reap() {
        _ = wait(WNOWAIT)  // The leader has exited; as a zombie it still holds its pid.
        let killDeadline = state.withLock { $0.killDeadline }
        let outputDeadline = killDeadline ?? Self.deadline(after: Self.outputGrace)
        let outputEnded = (0..<outputs).allSatisfy { _ in endOfOutput.wait(timeout: outputDeadline) == .success }
        if !outputEnded, killDeadline != nil {
            signalGroup(SIGKILL)  // Cancelled, and the rest of the group outlived the grace.
        }
        let (continuation, outcome, tail) = state.withLock { state in
            let termination = wait(0)
            state.reaped = true
            let tail = Self.text(state.tail)
            let outcome: Result<ChildProcess.Result, any Error> =
                state.killDeadline != nil
                ? .failure(CancellationError())
                : .success(ChildProcess.Result(termination: termination, stderrTail: tail))
            defer { state.continuation = nil }
            state.outcome = outcome
            return (state.continuation, outcome, tail)
        }
        control?.onExit(tail)
        continuation?.resume(with: outcome)
    }

    /// `waitid` for the leader's exit, with extra `options`; `.exited(-1)` if its status is
    /// lost (SIGCHLD ignored, so the kernel reaped it).
    private func wait(_ options: Int32) -> ChildProcess.Termination {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | options) != 0 {
            guard errno == EINTR else { return .exited(-1) }
        }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? .exited(status) : .signalled(status)
    }

    /// The tail as text: a character cut at the front is dropped, invalid UTF-8 replaced,
    /// surrounding whitespace trimmed.
    private static func text(_ tail: [UInt8]) -> String {
        let whole = tail.drop { $0 & 0xC0 == 0x80 }
        return String(decoding: whole, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func deadline(after duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        guard seconds < 1_000_000_000 else { return .distantFuture }
        return .now() + .nanoseconds(Int(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)))
    }
}
