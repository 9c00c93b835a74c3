#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif
package import SystemPackage

/// The one way Milepost reads a file it is given (a manifest, an `sql` step's file): open without
/// blocking, check with `fstat` that it is a regular file within the size cap, read at most
/// `maxBytes + 1` bytes.
package enum RegularFileReader {
    /// Why a file was not read.
    package enum Failure: Error, Sendable, Hashable {
        /// Missing, unreadable, or a directory. `path` is the path's text (`PathText`).
        case unreadable(path: String, reason: String)
        /// Not a regular file (FIFO, device), or larger than the cap.
        case refused(path: String, reason: String)
    }

    /// The bytes of the regular file at `path`; refuses a file larger than `maxBytes` (0 or more),
    /// whether `fstat` says so or the file grows while being read.
    package static func contents(path filePath: FilePath, maxBytes: Int) throws(Failure) -> [UInt8] {
        let path = PathText.string(filePath)
        // O_NONBLOCK: opening a FIFO must not wait for a writer.
        let fd = filePath.withPlatformString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            let code = errno
            if code == ENXIO { throw .refused(path: path, reason: "not a regular file (a socket or device)") }
            throw .unreadable(path: path, reason: errorText(code))
        }
        defer { close(fd) }

        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(path: path, reason: errorText(errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .unreadable(path: path, reason: "is a directory")
        case S_IFIFO: throw .refused(path: path, reason: "not a regular file (a FIFO)")
        case S_IFCHR, S_IFBLK: throw .refused(path: path, reason: "not a regular file (a device)")
        case S_IFSOCK: throw .refused(path: path, reason: "not a regular file (a socket)")
        default: throw .refused(path: path, reason: "not a regular file")
        }
        let limit = "the limit is \(maxBytes) bytes"
        if Int(status.st_size) > maxBytes {
            throw .refused(path: path, reason: "the file is \(status.st_size) bytes; \(limit)")
        }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= maxBytes {
            // One byte past the cap tells a file that grew; written so that a cap of Int.max cannot overflow.
            let wanted = min(chunk.count - 1, maxBytes - bytes.count) + 1
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: errorText(errno)) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        if bytes.count > maxBytes {
            throw .refused(path: path, reason: "the file grew while being read; \(limit)")
        }
        return bytes
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
