import Glibc

/// Our standard output and standard error, written with `write(2)`.
///
/// Output that cannot be written is dropped: a stream that is closed (`EBADF`), whose reader has
/// gone (`EPIPE`; SIGPIPE is ignored, see `ProcessStart`) or that fails otherwise never stops the
/// caller. A run's supervision and its journal must not depend on whether anyone still reads.
package enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes all of `text`, or as much as the stream takes before it fails.
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes`, or as much as the stream takes before it fails.
    package func write(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { write($0) }
    }

    private func write(_ buffer: UnsafeRawBufferPointer) {
        var rest = buffer
        while !rest.isEmpty {
            let written = Glibc.write(rawValue, rest.baseAddress, rest.count)
            if written > 0 {
                rest = UnsafeRawBufferPointer(rebasing: rest[written...])
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return  // Closed, or nobody reads any more: the rest is lost, on purpose.
            }
        }
    }

    /// True when the stream is a pipe or a socket: a reader that can go away (`EPIPE`).
    package var hasReaderThatCanLeave: Bool {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }
}
