import Glibc
package import SystemPackage

/// A thread of our own for work that blocks (reading a pipe, waiting for a child), so the
/// cooperative pool never does. Unlike Foundation's `Thread`, whose failure to start is silent,
/// a thread the system refuses (`EAGAIN` under `RLIMIT_NPROC`, a cgroup's `pids.max`, systemd's
/// `TasksMax=`; `ENOMEM` under `RLIMIT_AS`) is an error the caller sees at once.
package enum SystemThread {
    /// The stack each thread gets: what its loops need (a 16 KiB buffer, a few calls deep), not
    /// glibc's 8 MiB default, which counts in full against an address-space limit (`prlimit --as`).
    static let stackBytes = 256 * 1024

    /// Starts `body` on a new detached thread.
    /// - throws: `SystemThread.Refused` when the system refuses the thread.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(Refused) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackBytes)
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw Refused(errno: Errno(rawValue: result))
        }
    }

    /// The system refused a thread: `errno` says why (`EAGAIN`: a thread or process limit).
    package struct Refused: Error, Equatable, CustomStringConvertible {
        package var errno: Errno
        package var description: String { "cannot start a thread: \(errno)" }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
