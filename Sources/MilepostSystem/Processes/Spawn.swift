package import Glibc
package import SystemPackage

/// `posix_spawn` of a child that leads its own process group, with stdin from /dev/null,
/// stdout onto our stderr (or a descriptor of ours) and stderr onto a descriptor of ours, and no
/// other descriptor: those Milepost inherited without close-on-exec are closed in the child.
package enum Spawn {
    /// Starts `arguments[0]` and returns its pid, which is also its process group id.
    ///
    /// A program name without a slash is searched in the PATH of `environment` (ours when it has
    /// none) as `execvp` does: entries that lack it or cannot execute it are skipped.
    /// - parameter stdout: the child's stdout; nil for our stderr.
    /// - parameter control: the child's `ChildControl.descriptor` (3); nil for none.
    /// - throws: `ChildProcess.SpawnError`.
    package static func launch(
        _ arguments: [String], environment: [String: String], directory: String,
        stdout: FileDescriptor? = nil, stderr: FileDescriptor, control: FileDescriptor? = nil
    ) throws -> pid_t {
        let program = arguments.first ?? ""
        guard !program.isEmpty else { throw ChildProcess.SpawnError.program(program, errno: .noSuchFileOrDirectory) }
        try checkDirectory(directory)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var actionResults = [
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
            posix_spawn_file_actions_adddup2(&actions, (stdout ?? .standardError).rawValue, 1),
            posix_spawn_file_actions_adddup2(&actions, stderr.rawValue, 2),
            PathText.filePath(directory).withPlatformString { GNULibC.posixSpawnFileActionsAddChdir(&actions, $0) },
        ]
        if let control {
            actionResults.append(posix_spawn_file_actions_adddup2(&actions, control.rawValue, ChildControl.descriptor))
        }
        // Descriptors Milepost inherited without close-on-exec (a supervisor's pipe, a socket)
        // would otherwise outlive Milepost in the step, and keep a pipe open after a kill -9.
        if let closeFrom = GNULibC.posixSpawnFileActionsAddCloseFrom {
            actionResults.append(closeFrom(&actions, control == nil ? 3 : ChildControl.descriptor + 1))
        }
        if let failure = actionResults.first(where: { $0 != 0 }) {
            throw ChildProcess.SpawnError.program(program, errno: Errno(rawValue: failure))
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The parent may block or ignore these (see `SignalTrap`, `ProcessStart`); the child starts
        // afresh. SIGHUP keeps what Milepost inherited: ignored under `nohup`, ignored in the step too.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaultSignals, signal) }
        let flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        let attributeResults = [
            posix_spawnattr_setpgroup(&attributes, 0),
            posix_spawnattr_setsigmask(&attributes, &noSignals),
            posix_spawnattr_setsigdefault(&attributes, &defaultSignals),
            posix_spawnattr_setflags(&attributes, Int16(flags)),
        ]
        if let failure = attributeResults.first(where: { $0 != 0 }) {
            throw ChildProcess.SpawnError.program(program, errno: Errno(rawValue: failure))
        }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }

        var denied = false
        for path in candidates(for: program, searchPath: environment["PATH"]) {
            var pid: pid_t = 0
            let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            switch result {
            case 0: return pid
            case ENOENT, ENOTDIR: continue
            case EACCES: denied = true
            default: throw ChildProcess.SpawnError.program(program, errno: Errno(rawValue: result))
            }
        }
        throw ChildProcess.SpawnError.program(program, errno: denied ? .permissionDenied : .noSuchFileOrDirectory)
    }

    /// A pipe for the child's stderr or stdout: both ends close on exec, so no other child inherits them.
    /// - throws: `ChildProcess.SpawnError` naming `program`.
    package static func pipe(for program: String) throws -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
        do throws(Errno) {
            return try FileDescriptor.pipe(options: .closeOnExec)
        } catch {
            throw ChildProcess.SpawnError.program(program, errno: error)
        }
    }

    /// Paths to try for `program`: itself when it has a slash, else one per `searchPath` entry
    /// (an empty entry is the child's working directory).
    private static func candidates(for program: String, searchPath: String?) -> [String] {
        if program.contains("/") { return [program] }
        let searchPath = searchPath ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        return searchPath.split(separator: ":", omittingEmptySubsequences: false).map {
            $0.isEmpty ? program : "\($0)/\(program)"
        }
    }

    /// Tells a bad working directory apart from a missing program, which `posix_spawn`
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
