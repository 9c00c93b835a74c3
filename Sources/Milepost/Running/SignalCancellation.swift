import Glibc
import Synchronization

/// Turns SIGINT and SIGTERM into task cancellation for the duration of a call, so a run stops
/// starting steps, cancels the current one (its `exec` process group gets the signal), journals the
/// interruption and releases its lock instead of dying mid-write. Works when the process is PID 1.
public enum SignalCancellation {
    /// Runs `body` in a task that SIGINT/SIGTERM cancel. Returns its result and the first signal
    /// received, if any (exit with 128 + signal). The handlers are in place before `body` starts,
    /// so before it can take a store's lock.
    public static func run<Value: Sendable>(
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, signal: Int32?) {
        let state = Mutex<(signal: Int32?, task: Task<Value, any Error>?)>((nil, nil))
        let trap = try SignalTrap([SIGINT, SIGTERM]) { signal in
            let task = state.withLock { current in
                current.signal = current.signal ?? signal
                return current.task
            }
            task?.cancel()
        }
        defer { trap.uninstall() }
        let task = Task { try await body() }
        let signalledEarly = state.withLock { current in
            current.task = task
            return current.signal != nil
        }
        if signalledEarly { task.cancel() }
        let value = try await task.value
        return (value, state.withLock { $0.signal })
    }
}
