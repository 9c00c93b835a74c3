import Glibc
package import SystemPackage

/// A failed system call: which call, the file it was about, and `errno`.
package struct FileCallError: Error, Equatable {
    package var call: String
    package var path: String
    package var errno: Errno

    /// The call and the `strerror` text, e.g. `open: Permission denied`.
    package var reason: String { "\(call): \(errno)" }
}

/// Thin throwing wrappers over the POSIX file calls of the file store and of `FileWriting`, in
/// swift-system's types: a `FileDescriptor`, its `AccessMode` and `OpenOptions`, `FilePermissions`.
/// Each names the call it wraps, retries on `EINTR` where that is safe, and throws
/// `FileCallError` with the path. Every descriptor is opened close-on-exec. Opening, reading,
/// writing, sizing and truncating go through swift-system; the calls it has no wrapper for
/// (`openat`, `flock`, `fsync`, `renameat`, …) are made directly.
package enum FileCalls {
    /// The two kinds of `flock(2)` lock.
    package enum LockKind {
        /// `LOCK_SH`: any number of holders, none exclusive.
        case shared
        /// `LOCK_EX`: one holder.
        case exclusive
    }

    // MARK: - Descriptors

    /// Wraps `open(2)`. `path` is a path's text (`PathText`): opened as the bytes it stands for.
    /// `permissions` are required with `.create`.
    package static func open(
        _ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = [],
        permissions: FilePermissions? = nil
    ) throws(FileCallError) -> FileDescriptor {
        try calling("open", path) {
            try FileDescriptor.open(
                PathText.filePath(path), access, options: options.union(.closeOnExec), permissions: permissions)
        }
    }

    /// True when something exists at `path` (a path's text), following links, from `stat(2)`.
    package static func exists(_ path: String) -> Bool {
        (try? Stat(PathText.filePath(path))) != nil
    }

    /// Wraps `close(2)`. Not retried on `EINTR`: on Linux the descriptor is gone either way.
    package static func close(_ descriptor: FileDescriptor) {
        try? descriptor.close()
    }

    /// The size of an open file, from `fstat(2)`.
    package static func size(_ descriptor: FileDescriptor, _ path: String) throws(FileCallError) -> Int {
        try calling("fstat", path) { Int(try descriptor.stat().size) }
    }

    /// The size of an open regular file; nil for anything else (a FIFO, device, socket or
    /// directory), from one `fstat(2)`.
    package static func regularFileSize(_ descriptor: FileDescriptor, _ path: String) throws(FileCallError) -> Int? {
        let status = try calling("fstat", path) { try descriptor.stat() }
        return status.type == .regular ? Int(status.size) : nil
    }

    // MARK: - Reading and writing

    /// Reads from the current offset to the end of the file, with `read(2)`; `expected`, the size
    /// the caller had from `fstat(2)`, or one `fstat` here when it has none.
    package static func readToEnd(_ descriptor: FileDescriptor, _ path: String, expected: Int? = nil) throws(FileCallError) -> [UInt8] {
        let expected = if let expected { expected } else { try size(descriptor, path) }
        return try calling("read", path) { try descriptor.readToEnd(expected: expected) }
    }

    /// Reads up to `count` bytes at `offset` with `pread(2)`; fewer only at the end of the file.
    package static func read(
        _ descriptor: FileDescriptor, count: Int, at offset: Int, _ path: String
    ) throws(FileCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try calling("pread", path) {
                try bytes.withUnsafeMutableBytes {
                    try descriptor.read(
                        fromAbsoluteOffset: Int64(offset + filled), into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
                }
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// Writes all of `bytes` with `write(2)`, looping on partial writes.
    package static func write(_ descriptor: FileDescriptor, _ bytes: [UInt8], _ path: String) throws(FileCallError) {
        try calling("write", path) { try bytes.withUnsafeBytes { try descriptor.writeBytes($0) } }
    }

    /// Writes all of `bytes` at `offset` with `pwrite(2)`, looping on partial writes.
    package static func write(
        _ descriptor: FileDescriptor, _ bytes: [UInt8], at offset: Int, _ path: String
    ) throws(FileCallError) {
        try calling("pwrite", path) { try bytes.withUnsafeBytes { try descriptor.writeBytes($0, at: Int64(offset)) } }
    }

    /// Wraps `ftruncate(2)`.
    package static func truncate(_ descriptor: FileDescriptor, to length: Int, _ path: String) throws(FileCallError) {
        try calling("ftruncate", path) { try descriptor.resize(to: Int64(length)) }
    }

    /// Wraps `fsync(2)`.
    package static func sync(_ descriptor: FileDescriptor, _ path: String) throws(FileCallError) {
        _ = try retrying("fsync", path) { fsync(descriptor.rawValue) }
    }

    /// Wraps `fdatasync(2)`: the file's data and the metadata needed to read it back (its size).
    package static func syncData(_ descriptor: FileDescriptor, _ path: String) throws(FileCallError) {
        _ = try retrying("fdatasync", path) { fdatasync(descriptor.rawValue) }
    }

    /// `fsync(2)` on a directory, so that the entries created or renamed in it are durable.
    package static func syncDirectory(_ path: String) throws(FileCallError) {
        let descriptor = try open(path, .readOnly, options: .directory)
        defer { close(descriptor) }
        try sync(descriptor, path)
    }

    // MARK: - Locks

    /// Wraps `flock(2)` with `LOCK_NB`; false when another open file description holds a
    /// conflicting lock (`EWOULDBLOCK`).
    package static func tryLock(_ descriptor: FileDescriptor, _ kind: LockKind, _ path: String) throws(FileCallError) -> Bool {
        let operation = kind == .shared ? LOCK_SH : LOCK_EX
        do throws(FileCallError) {
            _ = try retrying("flock", path) { flock(descriptor.rawValue, operation | LOCK_NB) }
            return true
        } catch where error.errno == .wouldBlock {
            return false
        }
    }

    /// Wraps `flock(2)` with `LOCK_UN`.
    package static func unlock(_ descriptor: FileDescriptor) {
        _ = flock(descriptor.rawValue, LOCK_UN)
    }

    // MARK: - Directories

    /// Creates `path` and its missing parents with `mkdir(2)` (like `mkdir -p`), then makes each
    /// new entry durable by syncing its parent directory.
    package static func makeDirectories(_ path: String, permissions: FilePermissions) throws(FileCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        var parent = path.hasPrefix("/") ? "/" : "."
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            do throws(FileCallError) {
                let bytes = PathText.filePath(prefix)
                _ = try retrying("mkdir", prefix) { bytes.withPlatformString { mkdir($0, permissions.rawValue) } }
                try syncDirectory(parent)
            } catch where error.errno == .fileExists {}
            parent = prefix
        }
    }

    /// Wraps `rename(2)`; both are paths' texts.
    package static func rename(_ source: String, to destination: String) throws(FileCallError) {
        let (from, to) = (PathText.filePath(source), PathText.filePath(destination))
        _ = try retrying("rename", destination) {
            from.withPlatformString { from in to.withPlatformString { Glibc.rename(from, $0) } }
        }
    }

    /// Wraps `unlink(2)`.
    package static func remove(_ path: String) throws(FileCallError) {
        let bytes = PathText.filePath(path)
        _ = try retrying("unlink", path) { bytes.withPlatformString { unlink($0) } }
    }

    /// The path `path` names once every symbolic link in it is followed, absolute, from `realpath(3)`.
    package static func resolvingLinks(_ path: String) throws(FileCallError) -> String {
        let bytes = PathText.filePath(path)
        guard let resolved = bytes.withPlatformString({ realpath($0, nil) }) else {
            throw FileCallError(call: "realpath", path: path, errno: Errno(rawValue: Glibc.errno))
        }
        defer { free(resolved) }
        return PathText.string(FilePath(platformString: resolved))
    }

    /// Where the symbolic link at `path` points, as written in it, from `readlink(2)`; nil when
    /// `path` is not a link (or cannot be read).
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = PathText.filePath(path).withPlatformString { readlink($0, &buffer, buffer.count - 1) }
        guard count > 0 else { return nil }
        return PathText.string(bytes: buffer[..<count].map { UInt8(bitPattern: $0) })
    }

    /// The permissions, owner and group of an open file, from `fstat(2)`.
    package static func ownership(
        _ descriptor: FileDescriptor, _ path: String
    ) throws(FileCallError) -> (permissions: FilePermissions, owner: UserID, group: GroupID) {
        try calling("fstat", path) {
            let status = try descriptor.stat()
            return (status.permissions, status.userID, status.groupID)
        }
    }

    /// Gives an open file `owner` and `group` with `fchown(2)`, then `permissions` with `fchmod(2)`
    /// (in that order: a change of owner clears the set-user-ID bit).
    package static func setOwnership(
        _ descriptor: FileDescriptor, permissions: FilePermissions, owner: UserID, group: GroupID, _ path: String
    ) throws(FileCallError) {
        _ = try retrying("fchown", path) { fchown(descriptor.rawValue, owner.rawValue, group.rawValue) }
        _ = try retrying("fchmod", path) { fchmod(descriptor.rawValue, permissions.rawValue) }
    }

    // MARK: - Relative to a directory descriptor

    /// Wraps `openat(2)` relative to `directory`; `permissions` are required with `.create`.
    package static func open(
        at directory: FileDescriptor, _ name: String, _ access: FileDescriptor.AccessMode,
        options: FileDescriptor.OpenOptions = [], permissions: FilePermissions? = nil, path: String
    ) throws(FileCallError) -> FileDescriptor {
        let flags = access.rawValue | options.union(.closeOnExec).rawValue
        return FileDescriptor(rawValue: try retrying("open", path) {
            openat(directory.rawValue, name, flags, permissions?.rawValue ?? 0)
        })
    }

    /// Wraps `renameat(2)` within `directory`.
    package static func rename(
        at directory: FileDescriptor, _ source: String, to destination: String, path: String
    ) throws(FileCallError) {
        _ = try retrying("rename", path) { renameat(directory.rawValue, source, directory.rawValue, destination) }
    }

    /// Wraps `unlinkat(2)` in `directory`.
    package static func remove(at directory: FileDescriptor, _ name: String, path: String) throws(FileCallError) {
        _ = try retrying("unlink", path) { unlinkat(directory.rawValue, name, 0) }
    }

    /// The names in the directory open as `directory` (without `.` and `..`), from `fdopendir(3)`
    /// on a duplicate of the descriptor and `readdir(3)`.
    package static func entries(at directory: FileDescriptor, path: String) throws(FileCallError) -> [String] {
        let duplicate = try retrying("dup", path) { fcntl(directory.rawValue, F_DUPFD_CLOEXEC, 0) }
        guard let stream = fdopendir(duplicate) else {
            let code = Errno(rawValue: Glibc.errno)
            close(FileDescriptor(rawValue: duplicate))
            throw FileCallError(call: "fdopendir", path: path, errno: code)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    // MARK: - Errors

    /// Runs `call` until it does not fail with `EINTR`; throws its `errno` on any other failure.
    private static func retrying<Result: BinaryInteger>(
        _ call: String, _ path: String, _ body: () -> Result
    ) throws(FileCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            if Glibc.errno != EINTR { throw FileCallError(call: call, path: path, errno: Errno(rawValue: Glibc.errno)) }
        }
    }

    /// Runs a swift-system `call` (which retries on `EINTR` itself); its `Errno` becomes a `FileCallError`.
    private static func calling<Result>(
        _ call: String, _ path: String, _ body: () throws -> Result
    ) throws(FileCallError) -> Result {
        do {
            return try body()
        } catch let error as Errno {
            throw FileCallError(call: call, path: path, errno: error)
        } catch {
            // swift-system declares untyped `throws` but throws only `Errno`.
            throw FileCallError(call: call, path: path, errno: .ioError)
        }
    }
}
