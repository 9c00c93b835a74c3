import FoundationEssentials
import Instrumentation
import Synchronization
import MilepostSystem
import MilepostYAML

/// The built-in `exec` step: runs an argument list (no shell unless you name one).
enum ExecStep {
    struct Parameters: Decodable, Sendable {
        /// The program and its arguments.
        var command: [String]
        /// Variables added to the runner's environment.
        var env: [String: String]?
        /// The working directory; relative to the manifest's directory, which is also the default.
        var cwd: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Plain strings, then the checks, each error pointing at the value it is about
            // (`NestedValueError`): decoding each through a checking wrapper type cost a `Decoder`
            // per value (issue 32, docs/performance.md).
            command = try container.decode([String].self, forKey: .command)
            if let index = command.firstIndex(where: { $0.containsUTF8(0) }) {
                throw NestedValueError(at: [.key("command"), .index(index)], "an argument cannot contain a NUL character (it would be cut short)")
            }
            env = try container.decodeIfPresent([String: String].self, forKey: .env)
            // The first wrong entry by name, so that the same manifest always gives the same error.
            let wrong = env?.compactMap { name, value in Self.problem(name: name, value: value).map { (name: name, problem: $0) } }
            if let (name, problem) = wrong?.min(by: { $0.name < $1.name }) {
                throw NestedValueError(at: [.key("env"), .key(name)], problem)
            }
            cwd = try container.decodeIfPresent(String.self, forKey: .cwd)
            guard !command.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .command, in: container, debugDescription: "'command' needs at least the program to run")
            }
        }

        enum CodingKeys: String, CodingKey { case command, env, cwd }

        /// What is wrong with `name=value` as an environment entry; nil: nothing. `NAME=value`
        /// strings are what the program gets (`execve` takes C strings, which end at the first
        /// NUL), so a NUL would cut either short and a `=` in the name would set another variable.
        static func problem(name: String, value: String) -> String? {
            if name.isEmpty { "an environment variable needs a name" }
            else if name.containsUTF8(UInt8(ascii: "=")) { "the variable name '\(name)' cannot contain '='" }
            else if name.containsUTF8(0) { "a variable name cannot contain a NUL character" }
            else if value.containsUTF8(0) { "the value of '\(name)' cannot contain a NUL character (it would be cut short)" }
            else { nil }
        }
    }

    /// A program that ended other than with status 0, before any stop request (a child stopped by
    /// one is a `CancellationError`: `ChildProcess.run`). Its stderr is not part of the message: it
    /// was shown as it was written, and its tail is kept beside the error (`StepContext.recordStderrTail`:
    /// the state's and the journal's `stderr`, shown by `status`).
    struct Failure: SettledFailure, CustomStringConvertible {
        var command: String
        var termination: ChildProcess.Termination

        var description: String {
            switch termination {
            case .exited(let status): "'\(command)' exited with status \(status)"
            case .signalled(let signal): "'\(command)' was killed by signal \(signal)"
            }
        }
    }

    @Sendable static func run(_ context: StepContext<Parameters>) async throws {
        var environment = ProcessEnvironment.all()
        environment.merge(context.parameters.env ?? [:]) { _, new in new }
        environment["MILEPOST_STEP"] = context.id
        environment["MILEPOST_FROM"] = context.from.text
        environment["MILEPOST_TO"] = context.to.text
        environment["MILEPOST_CONTROL_FD"] = String(ChildControl.descriptor)
        environment["MILEPOST_RESUME_CURSOR"] = context.resumeCursor
        environment = TraceEnvironment.propagating(.current ?? .topLevel, into: environment)
        let directory = context.parameters.cwd.map(context.manifestPath) ?? context.manifestDirectory
        context.logger.debug("exec \(context.parameters.command) in \(directory)")
        // Control lines are handled in the order written, by one task that outlives a cancellation,
        // so a cursor written on SIGTERM is still committed before the attempt is recorded.
        let (lines, input) = AsyncStream.makeStream(of: String.self)
        let handler = Task { try await handle(lines, context: context) }
        let tail = ExitTail()
        let result: ChildProcess.Result
        do {
            result = try await ChildProcess.run(
                context.parameters.command, environment: environment, directory: directory,
                killGrace: context.stopGrace, secrets: context.secrets.all,
                control: ChildControl(
                    onLine: { input.yield($0) }, onEnd: { input.finish() }, onExit: { text in tail.text.withLock { $0 = text } }),
                onSpawn: { try await context.recordProcessGroup($0) })
        } catch {
            input.finish()
            _ = try? await handler.value
            await context.reporting.recordStderrTail(tail.text.withLock { $0 })
            throw error
        }
        input.finish()
        try await handler.value
        guard result.termination == .exited(0) else {
            await context.reporting.recordStderrTail(result.stderrTail)
            throw Failure(command: context.parameters.command[0], termination: result.termination)
        }
    }

    /// The stderr tail of a child, kept when it ends so that a cancelled attempt records it too.
    private final class ExitTail: Sendable {
        let text = Mutex("")
    }

    /// Acts on the child's control lines until their end; a cursor the store refuses fails the step.
    private static func handle(_ lines: AsyncStream<String>, context: StepContext<Parameters>) async throws {
        var refused: (any Error)?
        for await line in lines where refused == nil {
            switch ExecControlLine(line) {
            case .cursor(let cursor):
                do { try await context.commitCursor(cursor) } catch { refused = error }
            case .progress(let completed, let total, let message):
                await context.reportProgress(completed, of: total, message: message)
            case .unknown(let text):
                // Masked before it is cut: the step's logger masks whole secrets, not one cut in two.
                context.logger.warning("ignored a control line: \(String(context.redact(text).prefix(80)).escapingControlCharacters())")
            }
        }
        if let refused { throw refused }
    }
}
