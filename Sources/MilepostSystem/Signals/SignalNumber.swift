import Glibc

/// The numbers of the signals the targets above the system layer name, so they need not import Glibc.
package enum SignalNumber {
    /// `SIGINT`, 2: Ctrl-C.
    package static let interrupt = SIGINT
    /// `SIGTERM`, 15: the polite stop of `kill`, Kubernetes and systemd.
    package static let terminate = SIGTERM
    /// `SIGQUIT`, 3: Ctrl-\.
    package static let quit = SIGQUIT
    /// `SIGHUP`, 1: the terminal closed.
    package static let hangUp = SIGHUP
    /// `SIGKILL`, 9: `kill -9`, which nothing can catch (what `milepost test` kills its trials with).
    package static let kill = SIGKILL
}
