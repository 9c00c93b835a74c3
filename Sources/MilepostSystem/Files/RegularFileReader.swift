package import SystemPackage

/// The one way Milepost reads a file it is given (a manifest, an `sql` step's file): open without
/// blocking, check with `fstat` that it is a regular file within the size cap, read at most
/// `maxBytes + 1` bytes.
package enum RegularFileReader {
    /// Why a file was not read. `path` is the path's text (`PathText`).
    package enum Failure: Error, Sendable, Hashable {
        /// Missing or unreadable: the call's `errno`.
        case unreadable(path: String, errno: Errno)
        /// A directory (read as unreadable, not refused).
        case directory(path: String)
        /// Not a regular file (FIFO, device), or larger than the cap.
        case refused(path: String, Refusal)

        /// The path's text.
        package var path: String {
            switch self {
            case .unreadable(let path, _), .directory(let path), .refused(let path, _): path
            }
        }

        /// Why, in words: `strerror`'s text for an `errno`, else `is a directory` or the refusal.
        package var reason: String {
            switch self {
            case .unreadable(_, let errno): errno.description
            case .directory: "is a directory"
            case .refused(_, let refusal): refusal.description
            }
        }
    }

    /// Why a file that exists was refused: its kind, or its size.
    package enum Refusal: Sendable, Hashable, CustomStringConvertible {
        /// Opening it failed with `ENXIO`: a socket, or a device with no driver behind it.
        case socketOrDevice
        case fifo
        case device
        case socket
        /// Another kind of file (none other is known to Linux).
        case other
        /// `fstat` says it is `size` bytes, more than `limit`.
        case tooLarge(size: Int64, limit: Int)
        /// It grew past `limit` while being read.
        case grew(limit: Int)

        package var description: String {
            switch self {
            case .socketOrDevice: "not a regular file (a socket or device)"
            case .fifo: "not a regular file (a FIFO)"
            case .device: "not a regular file (a device)"
            case .socket: "not a regular file (a socket)"
            case .other: "not a regular file"
            case .tooLarge(let size, let limit): "the file is \(size) bytes; the limit is \(limit) bytes"
            case .grew(let limit): "the file grew while being read; the limit is \(limit) bytes"
            }
        }
    }

    /// The bytes of the regular file at `path`; refuses a file larger than `maxBytes` (0 or more),
    /// whether `fstat` says so or the file grows while being read.
    package static func contents(path filePath: FilePath, maxBytes: Int) throws(Failure) -> [UInt8] {
        let path = PathText.string(filePath)
        let descriptor: FileDescriptor
        do throws(Errno) {
            // `.nonBlocking`: opening a FIFO must not wait for a writer.
            descriptor = try errnoOf { try FileDescriptor.open(filePath, .readOnly, options: [.nonBlocking, .closeOnExec]) }
        } catch {
            throw error == .noSuchAddressOrDevice ? .refused(path: path, .socketOrDevice) : .unreadable(path: path, errno: error)
        }
        defer { try? descriptor.close() }

        let status: Stat
        do throws(Errno) {
            status = try errnoOf { try descriptor.stat() }
        } catch {
            throw .unreadable(path: path, errno: error)
        }
        switch status.type {
        case .regular: break
        case .directory: throw .directory(path: path)
        case .fifo: throw .refused(path: path, .fifo)
        case .characterSpecial, .blockSpecial: throw .refused(path: path, .device)
        case .socket: throw .refused(path: path, .socket)
        default: throw .refused(path: path, .other)
        }
        if status.size > maxBytes {
            throw .refused(path: path, .tooLarge(size: status.size, limit: maxBytes))
        }

        let bytes: [UInt8]
        do throws(Errno) {
            // swift-system's `read` retries on `EINTR`. One byte past the cap tells a file that grew.
            bytes = try errnoOf { try descriptor.readToEnd(expected: Int(status.size), limit: maxBytes) }
        } catch {
            throw .unreadable(path: path, errno: error)
        }
        if bytes.count > maxBytes {
            throw .refused(path: path, .grew(limit: maxBytes))
        }
        return bytes
    }

    /// Runs a swift-system call, which declares untyped `throws` but throws only `Errno`.
    private static func errnoOf<Result>(_ body: () throws -> Result) throws(Errno) -> Result {
        do {
            return try body()
        } catch let error as Errno {
            throw error
        } catch {
            throw .ioError
        }
    }
}
