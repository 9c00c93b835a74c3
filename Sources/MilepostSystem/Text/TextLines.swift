extension String {
    /// The lines of a text file, for readers that take it a line at a time (`milepost.lock`,
    /// `--env-file`): split at each line feed, without the carriage return of a CRLF line end, so a
    /// file saved on Windows (or checked out by git's `autocrlf`) reads as the same lines. Splitting
    /// by `Character` misses those line ends: `"\r\n"` is one grapheme, equal to neither `"\r"` nor
    /// `"\n"`. The text after the last line feed is the last line (empty when the text ends with one).
    package var textLines: [Substring] {
        let scalars = unicodeScalars
        var lines: [Substring] = []
        var start = scalars.startIndex
        while true {
            let end = scalars[start...].firstIndex(of: "\n") ?? scalars.endIndex
            var line = scalars[start..<end]
            if line.last == "\r" { line = line.dropLast() }
            lines.append(Substring(line))
            guard end < scalars.endIndex else { return lines }
            start = scalars.index(after: end)
        }
    }
}
