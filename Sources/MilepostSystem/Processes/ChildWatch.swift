import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import SystemPackage

/// Watches a spawned child from dedicated threads (`SystemThread`), so the cooperative pool never
/// blocks: one copies the child's stderr to ours and keeps its tail (one its stdout, one its
/// control lines, when it has them), and one spawns the child and reaps it. The child gets SIGKILL
/// when the thread that spawned it ends (`Spawn.deathSignal`), so that thread lives until it is reaped.
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
        /// The child's stdout, when it is captured.
        var captured: [UInt8] = []
        var reaped = false
        /// Set by `cancel`: when the group gets SIGKILL if the leader is still unreaped.
        var killDeadline: DispatchTime?
        /// Set once the leader has exited: a `cancel` after it no longer makes the result a cancellation.
        var exited = false
        /// Set by a `cancel` that came while the leader still ran: the result is `CancellationError`.
        var cancelledWhileRunning = false
        /// The leader, once spawned.
        var pid: pid_t?
    }

    private let tailLimit: Int
    /// Whether the output is copied to our stderr or kept.
    private let output: ChildProcess.Output
    /// Masks secrets in what is copied and in the tail.
    private let redactor: Redactor
    private let state = Mutex(State())
    /// Signalled once per output pipe when it reaches its end.
    private let endOfOutput = DispatchSemaphore(value: 0)
    private let outputs: Int
    private let control: ChildControl?

    /// Prepares to watch a child whose stderr is read from `stderr` and, when given, its stdout from
    /// `stdout` (the watch closes both); both are copied to our stderr with `redactor`'s secrets
    /// masked, or kept when `output` says so, the stderr's tail kept. With `control`, its lines are
    /// read from `controlInput` (closed at its end too). `start` starts the child.
    init(
        stderr: FileDescriptor, stdout: FileDescriptor?, tailLimit: Int, redactor: Redactor, output: ChildProcess.Output,
        control: (ChildControl, input: FileDescriptor)? = nil
    ) {
        self.tailLimit = max(0, tailLimit)
        self.output = output
        self.redactor = redactor
        self.outputs = (stdout == nil ? 1 : 2) + (control == nil ? 0 : 1)
        self.control = control?.0
        typealias Reader = (FileDescriptor, @Sendable (ChildWatch) -> Void)
        var readers: [Reader] = [(stderr, { watch in watch.copyOutput(from: stderr, keepingTail: true) })]
        if let stdout { readers.append((stdout, { watch in watch.copyOutput(from: stdout, keepingTail: false) })) }
        if let (control, input) = control {
            readers.append((input, { watch in
                control.readLines(from: input)
                watch.endOfOutput.signal()
            }))
        }
        self.readers = readers
    }

    /// Each output descriptor, with what its thread does (and closes it at its end).
    private let readers: [(FileDescriptor, @Sendable (ChildWatch) -> Void)]

    /// Starts the output threads, then a thread that calls `launch` and, once it returned a pid,
    /// reaps that child; returns the pid. `gate` is the child's (`Spawn.Gate`): why it could not run
    /// its program is read from it once it exited.
    /// The watch owns the output descriptors from now on, whether this throws or not.
    /// - throws: `SystemThread.Refused` when a thread cannot be started (nothing was spawned then),
    ///   or what `launch` threw.
    func start(gate: Spawn.Gate, _ launch: @escaping @Sendable () throws -> pid_t) throws -> pid_t {
        for (index, (_, read)) in readers.enumerated() {
            do {
                try SystemThread.start { read(self) }
            } catch {
                for (descriptor, _) in readers[index...] { try? descriptor.close() }
                throw error
            }
        }
        let launched = Mutex<Result<pid_t, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        try SystemThread.start {
            let result = Result { try launch() }
            launched.withLock { $0 = result }
            if case .success(let pid) = result { self.state.withLock { $0.pid = pid } }
            done.signal()
            if case .success = result { self.reap(gate: gate) }
        }
        done.wait()
        return try launched.withLock { $0! }.get()
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
    /// unless the child has been reaped by then. A child that had already exited keeps its status:
    /// `result` returns it rather than `CancellationError`.
    func cancel(killGrace: Duration) {
        let deadline = Self.deadline(after: killGrace)
        let first = state.withLock { state in
            guard state.killDeadline == nil, !state.reaped else { return false }
            state.killDeadline = deadline
            // Asked of the kernel too: the reaper thread may not have seen an exit that came first.
            state.cancelledWhileRunning = !state.exited && state.pid.map(Self.hasExited) != true
            return true
        }
        guard first else { return }
        signalGroup(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: deadline) { self.signalGroup(SIGKILL) }
    }

    private func signalGroup(_ signal: Int32) {
        state.withLock { state in
            if !state.reaped, let pid = state.pid { _ = kill(-pid, signal) }
        }
    }

    /// Copies `descriptor` to our stderr (or, captured, keeps a stdout) until its end; the copy
    /// goes on when our stderr is gone, so the child never blocks on a full pipe.
    private func copyOutput(from descriptor: FileDescriptor, keepingTail: Bool) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var redactor = self.redactor
        var lines = StandardStream.Lines()
        func copy(_ chunk: ArraySlice<UInt8>) {
            switch output {
            case .copied:
                lines.write(chunk)
            case .captured(let limit) where !keepingTail:
                state.withLock { $0.captured.append(contentsOf: chunk.prefix(max(0, limit - $0.captured.count))) }
            case .captured:
                break
            }
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

    private func reap(gate: Spawn.Gate) {
        guard let pid = state.withLock({ $0.pid }) else { return }
        _ = wait(pid, WNOWAIT)  // The leader has exited; as a zombie it still holds its pid.
        state.withLock { $0.exited = true }
        let spawnFailure = gate.failure()
        let killDeadline = state.withLock { $0.killDeadline }
        let outputDeadline = killDeadline ?? Self.deadline(after: Self.outputGrace)
        let outputEnded = (0..<outputs).allSatisfy { _ in endOfOutput.wait(timeout: outputDeadline) == .success }
        if !outputEnded, killDeadline != nil {
            signalGroup(SIGKILL)  // Cancelled, and the rest of the group outlived the grace.
        }
        let (continuation, outcome, tail) = state.withLock { state in
            let termination = wait(pid, 0)
            state.reaped = true
            let tail = Self.text(state.tail)
            let outcome: Result<ChildProcess.Result, any Error> =
                if state.cancelledWhileRunning { .failure(CancellationError()) }
                else if let spawnFailure { .failure(spawnFailure) }
                else {
                    .success(ChildProcess.Result(
                        termination: termination, stderrTail: tail, stdout: String(decoding: state.captured, as: UTF8.self)))
                }
            defer { state.continuation = nil }
            state.outcome = outcome
            return (state.continuation, outcome, tail)
        }
        control?.onExit(tail)
        continuation?.resume(with: outcome)
    }

    /// Whether the unreaped child `pid` has exited (a zombie), asked without waiting or reaping it.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
    }

    /// `waitid` for the exit of the leader `pid`, with extra `options`; `.exited(-1)` if its status is
    /// lost (SIGCHLD ignored, so the kernel reaped it).
    private func wait(_ pid: pid_t, _ options: Int32) -> ChildProcess.Termination {
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
        let scalars = String(decoding: whole, as: UTF8.self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    private static func deadline(after duration: Duration) -> DispatchTime {
        let (seconds, attoseconds) = duration.components
        guard seconds < 1_000_000_000 else { return .distantFuture }
        return .now() + .nanoseconds(Int(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)))
    }
}
