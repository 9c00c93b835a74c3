import CMilepostSpawn
import Glibc
package import SystemPackage

/// Starts a child that leads its own process group, with stdin from /dev/null, stdout onto our
/// stderr (or a descriptor of ours) and stderr onto a descriptor of ours, and no other descriptor:
/// those Milepost inherited without close-on-exec are closed in the child.
///
/// The child is forked (`milepost_spawn`, C: `posix_spawn` cannot set what follows) so that it
/// gets `PR_SET_PDEATHSIG` = SIGKILL: it dies with the thread that spawned it, and so with
/// Milepost, even under `kill -9`. It then waits at a gate until `Spawn.Gate.open()`, so that its
/// process group can be recorded before the program runs.
package enum Spawn {
    /// The signal a child gets when the thread that spawned it ends (Milepost killed included).
    package static let deathSignal = SIGKILL

    /// Starts `arguments[0]` and returns its pid, which is also its process group id.
    ///
    /// With a `gate`, the child is held at it until it is opened, and gets SIGKILL when the calling
    /// thread ends: call it from a thread that lives until the child is reaped. That the program
    /// cannot be executed shows once it has exited: `Gate.failure()`. Without one, the child runs at
    /// once, outlives the calling thread, and this returns once it executes its program.
    ///
    /// A program name without a slash is searched in the PATH of `environment` (ours when it has
    /// none) as `execvp` does: entries that lack it or cannot execute it are skipped.
    /// - parameter stdout: the child's stdout; nil for our stderr.
    /// - parameter control: the child's `ChildControl.descriptor` (3); nil for none.
    /// - throws: `ChildProcess.SpawnError`.
    package static func launch(
        _ arguments: [String], environment: [String: String], directory: String,
        stdout: FileDescriptor? = nil, stderr: FileDescriptor, control: FileDescriptor? = nil, gate: Gate? = nil
    ) throws -> Int32 {
        let program = arguments.first ?? ""
        guard !program.isEmpty else { throw ChildProcess.SpawnError.program(program, errno: .noSuchFileOrDirectory) }
        try checkDirectory(directory)
        guard let gate else {
            let gate = try Gate(program: program, directory: directory)
            let pid: Int32
            do {
                pid = try launch(
                    arguments, environment: environment, directory: directory, stdout: stdout, stderr: stderr,
                    control: control, gate: gate, deathSignal: 0)
            } catch {
                gate.discard()
                throw error
            }
            gate.open()
            if let failure = gate.failureOnceExecuted() {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                throw failure
            }
            return pid
        }
        return try launch(
            arguments, environment: environment, directory: directory, stdout: stdout, stderr: stderr, control: control,
            gate: gate, deathSignal: deathSignal)
    }

    private static func launch(
        _ arguments: [String], environment: [String: String], directory: String,
        stdout: FileDescriptor?, stderr: FileDescriptor, control: FileDescriptor?, gate: Gate, deathSignal: Int32
    ) throws -> Int32 {
        let program = arguments.first ?? ""
        let paths = candidates(for: program, searchPath: environment["PATH"]).map(cString)
        let argv = arguments.map(cString) + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { cString($0.key + "=" + $0.value) } + [nil]
        let chdirPath = cString(directory)
        defer { (paths + argv + envp + [chdirPath]).forEach { free($0) } }

        let pid = paths.map { UnsafePointer($0) }.withUnsafeBufferPointer { paths in
            argv.withUnsafeBufferPointer { argv in
                envp.withUnsafeBufferPointer { envp in
                    var request = milepost_spawn_request(
                        paths: paths.baseAddress, path_count: Int32(paths.count), argv: argv.baseAddress,
                        envp: envp.baseAddress, directory: chdirPath, stdout_fd: (stdout ?? .standardError).rawValue,
                        stderr_fd: stderr.rawValue, control_fd: control?.rawValue ?? -1, gate_fd: gate.childEnd.rawValue,
                        report_fd: gate.reportWriteEnd.rawValue, death_signal: deathSignal)
                    return milepost_spawn(&request)
                }
            }
        }
        guard pid > 0 else { throw ChildProcess.SpawnError.program(program, errno: Errno(rawValue: errno)) }
        gate.spawned()
        return pid
    }

    /// Holds a spawned child before it executes its program, and carries back why it could not.
    package final class Gate: Sendable {
        let program: String
        let directory: String
        /// The child reads one byte from it to go on; at its end it exits with status 127.
        let childEnd: FileDescriptor
        private let parentEnd: FileDescriptor
        /// The child writes a `milepost_spawn_report` to it when it cannot run the program.
        let reportWriteEnd: FileDescriptor
        private let reportReadEnd: FileDescriptor

        /// Both pipes close on exec; the report's read end does not block.
        /// - throws: `ChildProcess.SpawnError` naming `program`.
        package init(program: String, directory: String) throws {
            self.program = program
            self.directory = directory
            let gate = try Spawn.pipe(for: program)
            let report: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
            do {
                report = try Spawn.pipe(for: program, options: [.closeOnExec, .nonBlocking])
            } catch {
                try? gate.readEnd.close()
                try? gate.writeEnd.close()
                throw error
            }
            (childEnd, parentEnd, reportReadEnd, reportWriteEnd) = (gate.readEnd, gate.writeEnd, report.readEnd, report.writeEnd)
        }

        /// The child has its copies: ours of the ends it uses are closed.
        fileprivate func spawned() {
            try? childEnd.close()
            try? reportWriteEnd.close()
        }

        /// Lets the child execute its program. Call once, or `close` instead.
        package func open() {
            try? [UInt8(1)].withUnsafeBytes { try parentEnd.writeBytes($0) }
            try? parentEnd.close()
        }

        /// Gives up on the child before it ran anything: it exits with status 127.
        package func close() {
            try? parentEnd.close()
        }

        /// Once the child has exited: why it could not execute the program, if it could not.
        /// Closes the report pipe (call once).
        package func failure() -> ChildProcess.SpawnError? {
            defer { try? reportReadEnd.close() }
            var report = milepost_spawn_report()
            let count = withUnsafeMutableBytes(of: &report) { (try? reportReadEnd.read(into: $0)) ?? 0 }
            guard count == MemoryLayout<milepost_spawn_report>.size else { return nil }
            let code = Errno(rawValue: report.error)
            return Int(report.stage) == MILEPOST_SPAWN_STAGE_DIRECTORY
                ? .directory(directory, errno: code) : .program(program, errno: code)
        }

        /// Waits until the child has executed its program or failed to: why it could not, if it
        /// could not. Closes the report pipe.
        fileprivate func failureOnceExecuted() -> ChildProcess.SpawnError? {
            var poll = pollfd(fd: reportReadEnd.rawValue, events: Int16(POLLIN), revents: 0)
            while Glibc.poll(&poll, 1, -1) < 0 && errno == EINTR {}
            return failure()
        }

        /// When the spawn itself failed: every end is closed.
        package func discard() {
            for end in [childEnd, parentEnd, reportWriteEnd, reportReadEnd] { try? end.close() }
        }
    }

    /// A pipe for the child's stderr or stdout: both ends close on exec, so no other child inherits them.
    /// - throws: `ChildProcess.SpawnError` naming `program`.
    package static func pipe(
        for program: String, options: FileDescriptor.PipeOptions = .closeOnExec
    ) throws -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        do throws(Errno) {
            return try FileDescriptor.pipe(options: options)
        } catch {
            throw ChildProcess.SpawnError.program(program, errno: error)
        }
    }

    /// A copy of the bytes `text` stands for (`PathText`), NUL-terminated, to be `free`d: a byte
    /// that is not UTF-8 in a variable or path reaches the program as that byte.
    private static func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
        (PathText.bytes(text).map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { strdup($0.baseAddress!) }
    }

    /// Paths to try for `program`: itself when it has a slash, else one per `searchPath` entry
    /// (an empty entry is the child's working directory).
    private static func candidates(for program: String, searchPath: String?) -> [String] {
        if program.contains("/") { return [program] }
        let searchPath = searchPath ?? ProcessEnvironment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        return searchPath.split(separator: ":", omittingEmptySubsequences: false).map {
            $0.isEmpty ? program : "\($0)/\(program)"
        }
    }

    /// Tells a bad working directory apart from a missing program, which `execve`
    /// reports with the same errno.
    private static func checkDirectory(_ directory: String) throws {
        let status: Stat
        do throws(Errno) {
            status = try Stat(PathText.filePath(directory))
        } catch {
            throw ChildProcess.SpawnError.directory(directory, errno: error)
        }
        if status.type != .directory {
            throw ChildProcess.SpawnError.directory(directory, errno: .notDirectory)
        }
        if PathText.filePath(directory).withPlatformString({ access($0, X_OK) }) != 0 {
            throw ChildProcess.SpawnError.directory(directory, errno: Errno(rawValue: errno))
        }
    }
}
