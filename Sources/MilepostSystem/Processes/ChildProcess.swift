import Glibc
package import SystemPackage

/// Runs a program in its own process group and waits for it without blocking the cooperative pool.
package struct ChildProcess {
    /// How a child ended.
    package enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    package struct Result: Sendable {
        package var termination: Termination
        /// The last bytes the child wrote to stderr (at most `stderrTailBytes`), as text.
        package var stderrTail: String
        /// What the child wrote to stdout, when it was captured (`Output.captured`); else empty.
        package var stdout: String = ""
    }

    /// Where a child's output goes.
    package enum Output: Sendable, Equatable {
        /// To our stderr as it is written (the stderr's tail kept): an `exec` step's.
        case copied
        /// Kept and not shown: its stdout whole, up to `limit` bytes (`Result.stdout`), and its
        /// stderr's tail: the runs of `milepost test`, and its `--verify` command.
        case captured(limit: Int)
    }

    /// Why a child could not be started; nothing ran.
    package enum SpawnError: Error, Equatable {
        /// The program is missing, not executable, or could not be started (`errno` says why).
        case program(String, errno: Errno)
        /// The working directory is missing, not a directory, or not searchable.
        case directory(String, errno: Errno)
    }

    /// Spawns `arguments[0]` (looked up in PATH when it has no slash) with `arguments`,
    /// `environment` as its whole environment, in `directory`. Its stdout goes to our stderr (copied
    /// by us when that is a pipe); its stderr is copied to our stderr and its tail kept; with
    /// `output` `.captured`, both are kept instead (`Result.stdout`) and nothing is shown. Output
    /// that cannot be written (our stderr closed, its reader gone) is dropped; the child runs on. On task cancellation the child's
    /// process group gets SIGTERM, then SIGKILL after `killGrace` (as it is when cancelled), and this throws `CancellationError`,
    /// unless the child had exited already: then it returns how it ended.
    ///
    /// A task already cancelled spawns nothing. The PATH searched is `environment["PATH"]`, else ours.
    /// Once the child has exited, this waits up to a second more for its stderr to close, then
    /// returns even if processes it left behind still hold it (their output is still copied).
    ///
    /// With `control`, the child also gets the write end of a pipe as descriptor 3
    /// (`ChildControl.descriptor`), whose lines reach `control.onLine`; `control.onExit` gets the
    /// stderr's tail however the child ends, cancelled included.
    /// Every value of `secrets` in its output (and so in the tail) is replaced by `***`; with secrets,
    /// the child's stdout always goes through us.
    ///
    /// The child leads a process group of its own (its pid is the group id) and dies with the
    /// thread that watches it, and so with Milepost (`Spawn.deathSignal`). With `onSpawn`, it runs
    /// nothing before `onSpawn` has returned its pid (e.g. recorded it durably); when `onSpawn`
    /// throws, the child exits unrun and this throws that error.
    /// - throws: `SpawnError` when the child cannot be started, `SystemThread.Refused` when a
    ///   thread to watch it cannot, `CancellationError` when cancelled.
    package static func run(
        _ arguments: [String], environment: [String: String], directory: String,
        killGrace: StopGrace, stderrTailBytes: Int = 4096, secrets: [String] = [], control: ChildControl? = nil,
        output: Output = .copied, onSpawn: (@Sendable (Int32) async throws -> Void)? = nil
    ) async throws -> Result {
        let redactor = Redactor(secrets)
        try Task.checkCancellation()
        let program = arguments.first ?? ""
        let controlPipe = try control.map { _ in try Spawn.pipe(for: program) }
        let stderr: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            stderr = try Spawn.pipe(for: program)
        } catch {
            try? controlPipe?.readEnd.close()
            try? controlPipe?.writeEnd.close()
            throw error
        }
        // Our stderr is a pipe whose reader may leave (`| head`): the child's stdout goes through
        // us too, so that it never gets SIGPIPE or EPIPE for it; so it does when each line of our
        // stderr is framed (`--log-format json`). A terminal or a file it gets directly.
        let stdout: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
        do {
            let throughUs = output != .copied || StandardStream.error.hasReaderThatCanLeave || !redactor.isEmpty
                || StandardStream.errorIsFramed
            stdout = throughUs ? try Spawn.pipe(for: program) : nil
        } catch {
            try? stderr.readEnd.close()
            try? stderr.writeEnd.close()
            try? controlPipe?.readEnd.close()
            try? controlPipe?.writeEnd.close()
            throw error
        }
        let watch = ChildWatch(
            stderr: stderr.readEnd, stdout: stdout?.readEnd, tailLimit: stderrTailBytes, redactor: redactor, output: output,
            control: control.flatMap { control in controlPipe.map { (control, $0.readEnd) } })
        let gate: Spawn.Gate
        do {
            gate = try Spawn.Gate(program: program, directory: directory)
        } catch {
            for end in [stderr.readEnd, stderr.writeEnd] + [stdout?.readEnd, stdout?.writeEnd, controlPipe?.readEnd, controlPipe?.writeEnd].compactMap({ $0 }) {
                try? end.close()
            }
            throw error
        }
        let pid: pid_t
        do {
            defer {
                try? stderr.writeEnd.close()
                try? stdout?.writeEnd.close()
                try? controlPipe?.writeEnd.close()
            }
            pid = try watch.start(gate: gate) {
                try Spawn.launch(
                    arguments, environment: environment, directory: directory, stdout: stdout?.writeEnd,
                    stderr: stderr.writeEnd, control: controlPipe?.writeEnd, gate: gate)
            }
        } catch {
            gate.discard()
            throw error
        }
        do {
            try await onSpawn?(pid)
        } catch {
            gate.close()  // It exits without running anything; the watch reaps it.
            throw error
        }
        gate.open()
        return try await withTaskCancellationHandler {
            try await watch.result()
        } onCancel: {
            watch.cancel(killGrace: killGrace.duration)
        }
    }
}

extension ChildProcess.Termination: CustomStringConvertible {
    /// `exit status 3`, `signal 9 (Killed)`.
    package var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): "signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }
}

extension ChildProcess.SpawnError: CustomStringConvertible {
    /// `cannot run 'nope': No such file or directory`.
    package var description: String {
        switch self {
        case .program(let program, let code):
            "cannot run '\(program)': \(code)"
        case .directory(let directory, let code):
            "cannot run in directory '\(directory)': \(code)"
        }
    }
}
