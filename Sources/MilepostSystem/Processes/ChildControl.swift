package import SystemPackage

/// What a child tells its parent besides its output: lines written to a descriptor of its own
/// (the `exec` step's `MILEPOST_CONTROL_FD`), and, when it ends, the tail of its stderr.
package struct ChildControl: Sendable {
    /// The descriptor number the child writes its control lines to.
    package static let descriptor: Int32 = 3
    /// The longest control line kept whole; a longer one is handed on cut to this many bytes.
    package static let maximumLineBytes = 16 * 1024

    /// Called, from a thread of the watch, for each line the child writes (without its newline),
    /// in the order written.
    package var onLine: @Sendable (String) -> Void
    /// Called once, when the control descriptor reaches its end (every writer closed it).
    package var onEnd: @Sendable () -> Void
    /// Called once the child is reaped, whether it ended or was cancelled, with its stderr's tail.
    package var onExit: @Sendable (_ stderrTail: String) -> Void

    package init(
        onLine: @escaping @Sendable (String) -> Void, onEnd: @escaping @Sendable () -> Void,
        onExit: @escaping @Sendable (_ stderrTail: String) -> Void
    ) {
        self.onLine = onLine
        self.onEnd = onEnd
        self.onExit = onExit
    }

    /// Splits what is read from `descriptor` into lines for `onLine` until its end, then calls
    /// `onEnd` and closes it. A last line without its newline is handed on too.
    package func readLines(from descriptor: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var line: [UInt8] = []
        while true {
            let count = (try? buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }) ?? 0
            guard count > 0 else { break }
            for byte in buffer[..<count] {
                if byte == UInt8(ascii: "\n") {
                    onLine(String(decoding: line, as: UTF8.self))
                    line.removeAll(keepingCapacity: true)
                } else if line.count < Self.maximumLineBytes {
                    line.append(byte)
                }
            }
        }
        if !line.isEmpty { onLine(String(decoding: line, as: UTF8.self)) }
        try? descriptor.close()
        onEnd()
    }
}
