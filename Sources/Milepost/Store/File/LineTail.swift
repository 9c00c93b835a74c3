import MilepostSystem
import SystemPackage

/// The end of a file of newline-terminated lines (`journal.jsonl`, `state.log`), read backwards in
/// 64 KiB chunks only as far as the wanted lines go, so the cost does not grow with the file.
struct LineTail {
    /// The complete lines read, oldest first; the bytes after the last newline (empty, or a line
    /// torn by a crash) are not among them. The first may be cut when the read stopped before the
    /// start of the file, but never when it is one of the `count` asked for.
    var lines: [ArraySlice<UInt8>]
    /// The offset in the file of the bytes read, for messages naming a line by its offset.
    var start: Int

    private static let newline = UInt8(ascii: "\n")
    private static let chunkSize = 64 * 1024

    /// Reads the last `count` complete lines of the file open as `descriptor`, and maybe more;
    /// with `end`, of its first `end` bytes. `count` 0 reads back to the last newline (the last of
    /// `lines` then ends there), or to the start of the file when it has none.
    init(_ descriptor: FileDescriptor, path: String, last count: Int, end: Int? = nil) throws(FileCallError) {
        var start = if let end { end } else { try FileCalls.size(descriptor, path) }
        // count + 1 newlines: the one that ends the line before the first wanted, and `count` more.
        var newlines = 0
        var chunks: [[UInt8]] = []
        while start > 0, newlines <= count {
            let chunkStart = max(0, start - Self.chunkSize)
            let chunk = try FileCalls.read(descriptor, count: start - chunkStart, at: chunkStart, path)
            newlines += chunk.count { $0 == Self.newline }
            chunks.append(chunk)
            start = chunkStart
        }
        let tail = Array(chunks.reversed().joined())
        var lines = tail.split(separator: Self.newline, omittingEmptySubsequences: false)
        lines.removeLast()  // After the last newline: empty, or a torn line.
        self.lines = Array(lines)
        self.start = start
    }
}
