import SystemPackage

/// Our standard output and standard error.
///
/// Output that cannot be written is dropped: a stream that is closed (`EBADF`), whose reader has
/// gone (`EPIPE`; SIGPIPE is ignored, see `ProcessStart`) or that fails otherwise never stops the
/// caller. A run's supervision and its journal must not depend on whether anyone still reads.
package enum StandardStream: Sendable {
    case output
    case error

    private var descriptor: FileDescriptor {
        switch self {
        case .output: .standardOutput
        case .error: .standardError
        }
    }

    /// Writes all of `text`, or as much as the stream takes before it fails.
    package func write(_ text: String) {
        _ = try? descriptor.writeAll(text.utf8)
    }

    /// Writes all of `bytes`, or as much as the stream takes before it fails.
    package func write(_ bytes: ArraySlice<UInt8>) {
        _ = try? descriptor.writeAll(bytes)
    }

    /// True when the stream is a pipe or a socket: a reader that can go away (`EPIPE`).
    package var hasReaderThatCanLeave: Bool {
        guard let type = try? descriptor.stat().type else { return false }
        return type == .fifo || type == .socket
    }
}
