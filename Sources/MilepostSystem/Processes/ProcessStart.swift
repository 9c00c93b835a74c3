import Glibc
import SystemPackage

/// Undoes what a parent may leave behind that Milepost cannot work with; call it first thing in
/// `main`, before any thread starts (the signal mask is per thread and threads inherit it).
///
/// - A closed descriptor 0, 1 or 2 (`>&-`, `2>&-`) is opened on `/dev/null`, as daemons do: else
///   the next file Milepost opens (a store file) would get that number and receive output meant
///   for the terminal. Output to a closed stream is simply lost.
/// - SIGPIPE is ignored: a reader of our output that goes away (`milepost run | head -1`) makes
///   writes fail with `EPIPE` (dropped by `StandardStream`) instead of killing the run mid-step.
/// - SIGCHLD is reset to its default action: inherited as ignored (through `execve`, as some
///   supervisors and runtimes leave it), the kernel reaps children itself and their exit status
///   is lost, so every step would look failed.
/// - The signals Milepost waits for (SIGCHLD, and SIGINT, SIGTERM, SIGHUP, SIGQUIT, which it traps)
///   are unblocked: an inherited blocked mask would leave them pending forever.
package enum ProcessStart {
    /// The signals `prepare` unblocks.
    package static let awaitedSignals: [Int32] = [SIGCHLD, SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    package static func prepare() {
        openNullOnClosedStandardDescriptors()
        signal(SIGPIPE, SIG_IGN)
        signal(SIGCHLD, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for signal in awaitedSignals { sigaddset(&unblocked, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }

    private static func openNullOnClosedStandardDescriptors() {
        for number: Int32 in 0...2 where fcntl(number, F_GETFD) == -1 && errno == EBADF {
            // `open` returns the lowest free number: this one, as the lower ones are open by now.
            guard let null = try? FileDescriptor.open("/dev/null", .readWrite) else { return }
            if null.rawValue != number {
                _ = try? null.duplicate(as: FileDescriptor(rawValue: number))
                try? null.close()
            }
        }
    }
}
