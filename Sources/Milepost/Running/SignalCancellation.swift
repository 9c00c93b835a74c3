import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into task cancellation for the duration of a call, so a run stops
/// starting steps, cancels the current one (its `exec` process group gets the signal), journals the
/// interruption and releases its lock instead of dying mid-write. Works when the process is PID 1.
public enum SignalCancellation {
    /// Runs `body` in a task that SIGINT/SIGTERM cancel. Returns its result and the first signal
    /// received, if any (exit with 128 + signal).
    public static func run<Value: Sendable>(
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, signal: Int32?) {
        let received = Mutex<Int32?>(nil)
        let task = Task { try await body() }
        let trap = SignalTrap.install([SIGINT, SIGTERM]) { signal in
            received.withLock { $0 = $0 ?? signal }
            task.cancel()
        }
        defer { trap.uninstall() }
        let value = try await task.value
        return (value, received.withLock { $0 })
    }
}
