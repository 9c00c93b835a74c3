// CONTRACT STUB — implemented by the exec work package.
/// Runs a program in its own process group and waits for it without blocking the cooperative pool.
struct ChildProcess {
    /// How a child ended.
    enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    struct Result: Sendable {
        var termination: Termination
        /// The last bytes the child wrote to stderr (at most `stderrTailBytes`), as text.
        var stderrTail: String
    }

    /// Spawns `arguments[0]` (looked up in PATH when it has no slash) with `arguments`,
    /// `environment` as its whole environment, in `directory`. Its stdout goes to our stderr;
    /// its stderr is copied to our stderr and its tail kept. On task cancellation the child's
    /// process group gets SIGTERM, then SIGKILL after `killGrace`, and this throws `CancellationError`.
    static func run(
        _ arguments: [String], environment: [String: String], directory: String,
        killGrace: Duration, stderrTailBytes: Int = 4096
    ) async throws -> Result {
        fatalError("unimplemented")
    }
}
