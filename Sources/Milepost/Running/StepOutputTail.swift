/// The part of a step's stderr kept with its failure or interruption, in the state and the journal.
enum StepOutputTail {
    /// At most this many lines are kept, the last ones.
    static let maximumLines = 20
    /// At most this many bytes (UTF-8) are kept, the last ones (`exec` keeps 4 KiB of stderr).
    static let maximumBytes = 4096

    /// The last lines of `text`, within the bounds, every control character but the newline
    /// escaped (`UntrustedText`); nil when nothing is left.
    static func bounded(_ text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(maximumLines)
        while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeFirst() }
        var kept = lines.joined(separator: "\n")
        if kept.utf8.count > maximumBytes {
            kept = String(decoding: kept.utf8.suffix(maximumBytes).drop { $0 & 0xC0 == 0x80 }, as: UTF8.self)
        }
        let escaped = kept.escapingControlCharacters(keepingNewlines: true)
        return escaped.isEmpty ? nil : escaped
    }
}
