import MilepostSystem
import Synchronization

/// Turns SIGINT, SIGTERM, SIGHUP and SIGQUIT into task cancellation for the duration of a call, so a
/// run stops starting steps, cancels the current one (its `exec` process group gets SIGTERM),
/// journals the interruption and releases its lock instead of dying mid-write. Works when the
/// process is PID 1.
public enum SignalCancellation {
    /// `body` threw after a signal cancelled it (for example while it waited for a lock).
    public struct Interrupted: Error, Sendable, CustomStringConvertible {
        public let signal: Int32
        /// What `body` threw.
        public let underlying: any Error

        /// The conventional exit status, 128 + signal.
        public var exitStatus: Int32 { SignalCancellation.exitStatus(for: signal) }

        public var description: String { "interrupted by signal \(signal) (\(underlying))" }
    }

    /// The exit status of a process that stops because of `signal`: 128 + n (130, 143).
    public static func exitStatus(for signal: Int32) -> Int32 {
        SignalTrap.exitStatus(for: signal)
    }

    /// The signals that cancel a run: SIGINT, SIGTERM, SIGQUIT, and SIGHUP unless it is ignored
    /// (under `nohup`, a closed terminal must not stop the run).
    static var trappedSignals: [Int32] {
        [SignalNumber.interrupt, SignalNumber.terminate, SignalNumber.quit]
            + (SignalTrap.isIgnored(SignalNumber.hangUp) ? [] : [SignalNumber.hangUp])
    }

    /// Runs `body` in a task that `trappedSignals` cancel. Returns its result and the first signal
    /// received, if any (exit with 128 + signal). The handlers are in place before `body` starts,
    /// so before it can take a store's lock.
    /// - throws: what `body` throws, wrapped in `Interrupted` when a signal had arrived.
    public static func run<Value: Sendable>(
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> (value: Value, signal: Int32?) {
        let state = Mutex<(signal: Int32?, task: Task<Value, any Error>?)>((nil, nil))
        let trap = try SignalTrap(trappedSignals) { signal in
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
        do {
            let value = try await task.value
            return (value, state.withLock { $0.signal })
        } catch {
            if let signal = state.withLock({ $0.signal }) { throw Interrupted(signal: signal, underlying: error) }
            throw error
        }
    }
}
