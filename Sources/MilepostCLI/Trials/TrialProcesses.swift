import Milepost
import MilepostSystem

/// The processes of one `milepost test`: this binary's own commands (the runs of each trial, a
/// replica of the previous release, `baseline`, `resolve`) and the user's `--setup` and `--verify`
/// (`sh -c`), each a child in a trial's sandbox, its output kept rather than shown.
struct TrialProcesses: Sendable {
    /// How a child ended and what it printed.
    struct Outcome: Sendable {
        let termination: ChildProcess.Termination
        let stdout: String
        let stderrTail: String

        /// The exit status; nil when a signal ended it.
        var exitCode: Int32? {
            if case .exited(let code) = termination { code } else { nil }
        }

        /// `exit 1: the last line of its stderr`.
        var summary: String {
            let last = stderrTail.split(separator: "\n").last.map { ": " + $0 } ?? ""
            return "\(termination)\(last)"
        }
    }

    /// This binary.
    let executable: String
    /// Our environment without what would change a child's behaviour behind the flags it is given:
    /// `MILEPOST_*` settings, `NOTIFY_SOCKET`, `OTEL_*`. Where the client libraries are is kept:
    /// a child opens the store this run opened.
    let environment: [String: String]

    init(executable: String) {
        self.executable = executable
        environment = ProcessEnvironment.all().filter { name, _ in
            (!name.hasPrefix(UnknownVariables.prefix) || UnknownVariables.clientLibraries.contains(name))
                && !name.hasPrefix("OTEL_") && name != "NOTIFY_SOCKET"
        }
    }

    /// Runs `milepost arguments…` in `sandbox`, with `variables` added to its environment.
    func milepost(_ arguments: [String], in sandbox: TrialSandbox, variables: [String: String] = [:]) async throws -> Outcome {
        try await run([executable] + arguments, in: sandbox, variables: variables)
    }

    /// Runs `sh -c command` in `sandbox`'s scratch directory.
    func shell(_ command: String, in sandbox: TrialSandbox) async throws -> Outcome {
        try await run(["/bin/sh", "-c", command], in: sandbox, variables: [:])
    }

    private func run(_ command: [String], in sandbox: TrialSandbox, variables: [String: String]) async throws -> Outcome {
        let result = try await ChildProcess.run(
            command, environment: environment.merging(sandbox.environment) { _, new in new }.merging(variables) { _, new in new },
            directory: sandbox.directory + "/data", killGrace: StopGrace(.seconds(10)), output: .captured(limit: 4 << 20))
        return Outcome(termination: result.termination, stdout: result.stdout, stderrTail: result.stderrTail)
    }
}
