import Synchronization
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

    /// How a line on stderr is written when it is framed: the line (without its newline) and whether
    /// it reports an error → the text that stands for it (one JSON object, for `--log-format json`).
    package typealias Framing = @Sendable (_ line: String, _ isError: Bool) -> String

    private static let errorFraming = Mutex<Framing?>(nil)

    /// Frames every line written to stderr from now on, ours (`write`) and a child's copied
    /// (`Lines`); `writeFramed` writes a line that is framed already. Set once, before any output.
    package static func frameErrorLines(_ framing: @escaping Framing) {
        errorFraming.withLock { $0 = framing }
    }

    /// True once `frameErrorLines` was called.
    package static var errorIsFramed: Bool { errorFraming.withLock { $0 != nil } }

    /// Writes all of `text`, or as much as the stream takes before it fails. On a framed stderr each
    /// line is framed (`isError`: it reports an error); a last line without a newline is ended.
    package func write(_ text: String, isError: Bool = false) {
        guard self == .error, let framing = Self.errorFraming.withLock({ $0 }) else {
            write(bytesOf: text)
            return
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let framed = lines.map { framing(String($0), isError) + "\n" }.joined()
        write(bytesOf: framed)
    }

    /// Writes `line`, framed already (a log record), as it is.
    package func writeFramed(_ line: String) {
        write(bytesOf: line)
    }

    private func write(bytesOf text: String) {
        var text = text
        text.withUTF8 { _ = try? descriptor.writeBytes(UnsafeRawBufferPointer($0)) }
    }

    /// A stream of bytes (a child's output) copied to stderr: as it arrives, or, on a framed stderr,
    /// a line at a time, each framed, with what is left ended by `finish`.
    package struct Lines: Sendable {
        private var pending: [UInt8] = []

        package init() {}

        package mutating func write(_ chunk: ArraySlice<UInt8>) {
            guard StandardStream.errorFraming.withLock({ $0 }) != nil else {
                StandardStream.error.write(chunk)
                return
            }
            pending.append(contentsOf: chunk)
            guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { return }
            StandardStream.error.write(String(decoding: pending[...last], as: UTF8.self))
            pending.removeFirst(last + 1)
        }

        package mutating func finish() {
            guard !pending.isEmpty else { return }
            StandardStream.error.write(String(decoding: pending, as: UTF8.self))
            pending = []
        }
    }

    /// Writes all of `bytes`, or as much as the stream takes before it fails.
    package func write(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes { _ = try? descriptor.writeBytes($0) }
    }

    /// True when the stream is a pipe or a socket: a reader that can go away (`EPIPE`).
    package var hasReaderThatCanLeave: Bool {
        guard let type = try? descriptor.stat().type else { return false }
        return type == .fifo || type == .socket
    }
}
