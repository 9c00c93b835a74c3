package import Glibc
package import SystemPackage

/// A failed system call: which call, the file it was about, and `errno`.
package struct FileCallError: Error, Equatable {
    package var call: String
    package var path: String
    package var errno: Errno

    /// The call and the `strerror` text, e.g. `open: Permission denied`.
    package var reason: String { "\(call): \(errno)" }
}

/// Thin throwing wrappers over the POSIX file calls of the file store. Each names the call it
/// wraps, retries on `EINTR` where that is safe, and throws `FileCallError` with the path.
/// Reading, writing, sizing and truncating go through swift-system's `FileDescriptor`; the calls
/// it has no wrapper for (`openat`, `flock`, `fsync`, `renameat`, …) are made directly.
package enum FileCalls {
    // MARK: - Descriptors

    /// Wraps `open(2)`. `path` is a path's text (`PathText`): opened as the bytes it stands for.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(FileCallError) -> Int32 {
        let bytes = PathText.filePath(path)
        return try retrying("open", path) { bytes.withPlatformString { Glibc.open($0, flags, mode) } }
    }

    /// True when something exists at `path` (a path's text), following links, from `stat(2)`.
    package static func exists(_ path: String) -> Bool {
        (try? Stat(PathText.filePath(path))) != nil
    }

    /// Wraps `close(2)`. Not retried on `EINTR`: on Linux the descriptor is gone either way.
    package static func close(_ descriptor: Int32) {
        try? FileDescriptor(rawValue: descriptor).close()
    }

    /// The size of an open file, from `fstat(2)`.
    package static func size(_ descriptor: Int32, _ path: String) throws(FileCallError) -> Int {
        try calling("fstat", path) { Int(try FileDescriptor(rawValue: descriptor).stat().size) }
    }

    /// True when an open file is a regular file (not a FIFO, device, socket or directory), from `fstat(2)`.
    package static func isRegularFile(_ descriptor: Int32, _ path: String) throws(FileCallError) -> Bool {
        try calling("fstat", path) { try FileDescriptor(rawValue: descriptor).stat().type == .regular }
    }

    // MARK: - Reading and writing

    /// Reads from the current offset to the end of the file, with `read(2)`.
    package static func readToEnd(_ descriptor: Int32, _ path: String) throws(FileCallError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try calling("read", path) {
                try chunk.withUnsafeMutableBytes { try FileDescriptor(rawValue: descriptor).read(into: $0) }
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Reads up to `count` bytes at `offset` with `pread(2)`; fewer only at the end of the file.
    package static func read(
        _ descriptor: Int32, count: Int, at offset: Int, _ path: String
    ) throws(FileCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try calling("pread", path) {
                try bytes.withUnsafeMutableBytes {
                    try FileDescriptor(rawValue: descriptor).read(
                        fromAbsoluteOffset: Int64(offset + filled), into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
                }
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// Writes all of `bytes` with `write(2)`, looping on partial writes.
    package static func write(_ descriptor: Int32, _ bytes: [UInt8], _ path: String) throws(FileCallError) {
        _ = try calling("write", path) { try FileDescriptor(rawValue: descriptor).writeAll(bytes) }
    }

    /// Writes all of `bytes` at `offset` with `pwrite(2)`, looping on partial writes.
    package static func write(
        _ descriptor: Int32, _ bytes: [UInt8], at offset: Int, _ path: String
    ) throws(FileCallError) {
        _ = try calling("pwrite", path) {
            try FileDescriptor(rawValue: descriptor).writeAll(toAbsoluteOffset: Int64(offset), bytes)
        }
    }

    /// Wraps `ftruncate(2)`.
    package static func truncate(_ descriptor: Int32, to length: Int, _ path: String) throws(FileCallError) {
        try calling("ftruncate", path) { try FileDescriptor(rawValue: descriptor).resize(to: Int64(length)) }
    }

    /// Wraps `fsync(2)`.
    package static func sync(_ descriptor: Int32, _ path: String) throws(FileCallError) {
        _ = try retrying("fsync", path) { fsync(descriptor) }
    }

    /// `fsync(2)` on a directory, so that the entries created or renamed in it are durable.
    package static func syncDirectory(_ path: String) throws(FileCallError) {
        let descriptor = try open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(descriptor) }
        try sync(descriptor, path)
    }

    // MARK: - Locks

    /// Wraps `flock(2)` with `LOCK_NB` added; false when another open file description holds a
    /// conflicting lock (`EWOULDBLOCK`).
    package static func tryLock(_ descriptor: Int32, _ operation: Int32, _ path: String) throws(FileCallError) -> Bool {
        do throws(FileCallError) {
            _ = try retrying("flock", path) { flock(descriptor, operation | LOCK_NB) }
            return true
        } catch where error.errno == .wouldBlock {
            return false
        }
    }

    /// Wraps `flock(2)` with `LOCK_UN`.
    package static func unlock(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
    }

    // MARK: - Directories

    /// Creates `path` and its missing parents with `mkdir(2)` (like `mkdir -p`), then makes each
    /// new entry durable by syncing its parent directory.
    package static func makeDirectories(_ path: String, mode: mode_t) throws(FileCallError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        var parent = path.hasPrefix("/") ? "/" : "."
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            do throws(FileCallError) {
                let bytes = PathText.filePath(prefix)
                _ = try retrying("mkdir", prefix) { bytes.withPlatformString { mkdir($0, mode) } }
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

    /// The mode, owner and group of an open file, from `fstat(2)`.
    package static func ownership(_ descriptor: Int32, _ path: String) throws(FileCallError) -> (mode: mode_t, owner: uid_t, group: gid_t) {
        try calling("fstat", path) {
            let status = try FileDescriptor(rawValue: descriptor).stat()
            return (status.permissions.rawValue, status.userID.rawValue, status.groupID.rawValue)
        }
    }

    /// Gives an open file `owner` and `group` with `fchown(2)`, then `mode` with `fchmod(2)` (in
    /// that order: a change of owner clears the set-user-ID bit).
    package static func setOwnership(
        _ descriptor: Int32, mode: mode_t, owner: uid_t, group: gid_t, _ path: String
    ) throws(FileCallError) {
        _ = try retrying("fchown", path) { fchown(descriptor, owner, group) }
        _ = try retrying("fchmod", path) { fchmod(descriptor, mode) }
    }

    // MARK: - Relative to a directory descriptor

    /// Wraps `openat(2)` relative to `directory`.
    package static func open(
        at directory: Int32, _ name: String, _ flags: Int32, mode: mode_t = 0, path: String
    ) throws(FileCallError) -> Int32 {
        try retrying("open", path) { openat(directory, name, flags, mode) }
    }

    /// Wraps `renameat(2)` within `directory`.
    package static func rename(
        at directory: Int32, _ source: String, to destination: String, path: String
    ) throws(FileCallError) {
        _ = try retrying("rename", path) { renameat(directory, source, directory, destination) }
    }

    /// Wraps `unlinkat(2)` in `directory`.
    package static func remove(at directory: Int32, _ name: String, path: String) throws(FileCallError) {
        _ = try retrying("unlink", path) { unlinkat(directory, name, 0) }
    }

    /// The names in the directory open as `directory` (without `.` and `..`), from `fdopendir(3)`
    /// on a duplicate of the descriptor and `readdir(3)`.
    package static func entries(at directory: Int32, path: String) throws(FileCallError) -> [String] {
        let duplicate = try retrying("dup", path) { fcntl(directory, F_DUPFD_CLOEXEC, 0) }
        guard let stream = fdopendir(duplicate) else {
            let code = Errno(rawValue: Glibc.errno)
            close(duplicate)
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
