import Glibc
import Synchronization
package import SystemPackage

/// Hands signals (by default SIGINT and SIGTERM) to a callback instead of their default action,
/// which ends the process — or does nothing at all when we are PID 1 in a container.
///
/// Install the trap before taking the store lock, so that a signal arriving while the lock is
/// held always reaches code that journals the interruption and releases the lock:
/// ```swift
/// let trap = try SignalTrap { signal in runTask.cancel() }
/// defer { trap.uninstall() }
/// ```
/// The C handler only writes the signal number to a pipe; a dedicated thread reads it and calls
/// the callback there, in order. This works whichever thread the kernel interrupts, whatever its
/// signal mask. A signal can have one trap at a time; trapping it twice is a programmer error.
package final class SignalTrap: Sendable {
    package let signals: [Int32]
    private let installed = Mutex(true)

    /// Installs `callback` for `signals`.
    /// - throws: `SignalTrap.SetupError` if the relay pipe (too many open files) or its thread (a
    ///   thread limit) cannot be created.
    package init(_ signals: [Int32] = [SIGINT, SIGTERM], callback: @escaping @Sendable (Int32) -> Void) throws {
        self.signals = signals
        try registry.withLock { registry in
            if relayDescriptor < 0 { relayDescriptor = try Self.startRelay() }
            for signal in signals {
                precondition(registry[signal] == nil, "signal \(signal) is already trapped")
                registry[signal] = callback
                var action = sigaction()
                action.__sigaction_handler.sa_handler = relaySignal
                action.sa_flags = SA_RESTART
                sigemptyset(&action.sa_mask)
                sigaction(signal, &action, nil)
            }
        }
    }

    /// Restores the default action of the trapped signals. Calling it again does nothing.
    package func uninstall() {
        guard installed.withLock({ (installed: inout Bool) in
            defer { installed = false }
            return installed
        }) else { return }
        registry.withLock { registry in
            for number in signals {
                signal(number, SIG_DFL)
                registry[number] = nil
            }
        }
    }

    /// True when `signal`'s action is to ignore it, as `nohup` leaves SIGHUP.
    package static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        let ignore = unsafeBitCast(SIG_IGN, to: Int.self)
        return current.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } == ignore
    }

    /// The exit status of a process that stops because of `signal`: 128 + n (130, 143).
    package static func exitStatus(for signal: Int32) -> Int32 {
        128 + signal
    }

    /// The relay pipe or its thread could not be created; `errno` says why.
    package struct SetupError: Error, CustomStringConvertible {
        package var errno: Errno
        package var description: String { "cannot trap signals: \(errno)" }
    }

    /// Creates the process-wide relay pipe and its reading thread; returns the write end.
    /// Never closed, so a handler still running during `uninstall` never writes to a reused descriptor.
    private static func startRelay() throws -> Int32 {
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do throws(Errno) {
            pipe = try FileDescriptor.pipe(options: [.closeOnExec, .nonBlocking])
        } catch {
            throw SetupError(errno: error)
        }
        let readEnd = pipe.readEnd.rawValue
        _ = fcntl(readEnd, F_SETFL, 0)  // The thread blocks on reads; the handler must never block on writes.
        let relay: @Sendable () -> Void = {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    let signal = Int32(byte)
                    registry.withLock { $0[signal] }?(signal)
                } else if count < 0 && errno != EINTR {
                    return
                }
            }
        }
        do throws(SystemThread.Refused) {
            try SystemThread.start(relay)
        } catch {
            try? pipe.readEnd.close()
            try? pipe.writeEnd.close()
            throw SetupError(errno: error.errno)
        }
        return pipe.writeEnd.rawValue
    }
}

/// The callback of each trapped signal.
private let registry = Mutex<[Int32: @Sendable (Int32) -> Void]>([:])

/// The relay pipe's write end, -1 until the first trap. Written once, under `registry`'s lock and
/// before any handler is installed; then only read, by `relaySignal`.
nonisolated(unsafe) private var relayDescriptor: Int32 = -1

/// The C signal handler: async-signal-safe, it only writes one byte and keeps `errno`.
private func relaySignal(_ signal: Int32) {
    let savedErrno = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(relayDescriptor, &byte, 1)
    errno = savedErrno
}
