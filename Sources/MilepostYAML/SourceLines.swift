/// The lines of a source's bytes, counted as libyaml counts them: `\n`, `\r`, `\r\n`, NEL, LS and
/// PS each end a line, columns are Unicode scalars, a UTF-8 byte order mark is skipped, and the
/// text stops at the first byte that is not UTF-8. Found in one pass over the bytes; then any
/// line's text is a slice, not a scan from the start (a diagnostic quotes its line, so rendering
/// n diagnostics of a file costs the file once, not n times).
public struct SourceLines: Sendable {
    private let bytes: [UInt8]
    /// Where each line starts, in bytes: a line exists when a scalar starts it.
    private let starts: [Int]
    /// Where the text ends: the input's end, or its first byte that is not UTF-8.
    private let end: Int

    public init(_ bytes: [UInt8]) {
        var starts: [Int] = []
        var offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        bytes.withUnsafeBufferPointer { bytes in
            var inLine = false
            // Most bytes are ASCII and no line break: they are skipped, not decoded.
            let isPlain = { (offset: Int) in offset < bytes.count && bytes[offset] > 0x0D && bytes[offset] < 0x80 }
            while offset < bytes.count {
                let plain = isPlain(offset)
                let scalar = plain ? nil : Self.scalar(in: bytes, at: offset)
                if !plain, scalar == nil { break }
                if !inLine {
                    starts.append(offset)
                    inLine = true
                }
                guard let scalar else {
                    repeat { offset += 1 } while isPlain(offset)
                    continue
                }
                offset += UTF8.width(scalar)
                if scalar == "\r", offset < bytes.count, bytes[offset] == UInt8(ascii: "\n") { offset += 1 }  // CRLF: one break
                if Self.isLineBreak(scalar) { inLine = false }
            }
        }
        self.bytes = bytes
        self.starts = starts
        end = offset
    }

    /// The text of 1-based line `number` without its line break; nil past the end.
    public func line(_ number: Int) -> String? {
        guard var text = bytes(ofLine: number) else { return nil }
        // Decoded at once, not scalar by scalar (a line is quoted once per diagnostic on it): its
        // bytes are UTF-8 (the text ends before the first byte that is not), and only its end
        // is a line break, cut as bytes (removing scalars from the `String` cost ≈ 7 k instructions).
        while let width = Self.lineBreakWidth(endOf: text) { text.removeLast(width) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The UTF-8 length of the line break `text` ends with (`isLineBreak`); nil when it ends in none.
    /// A line break is one to three bytes: the shortest suffix that is one whole scalar is its last.
    private static func lineBreakWidth(endOf text: ArraySlice<UInt8>) -> Int? {
        guard !text.isEmpty else { return nil }
        for width in 1...min(3, text.count) {
            var iterator = text.suffix(width).makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator), iterator.next() == nil else { continue }
            return isLineBreak(scalar) ? width : nil
        }
        return nil
    }

    /// The location of the first scalar that starts at or after byte `offset`; past the last
    /// scalar, the location after it (the start of the next line after a line break).
    func location(ofByte offset: Int) -> SourceLocation {
        // The line holding `offset`: the last that starts at or before it.
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let index = max(low - 1, 0)
        guard let text = bytes(ofLine: index + 1) else { return SourceLocation(line: 1, column: 1) }
        var column = 1
        for scalar in Self.scalars(text) {
            if scalar.offset >= offset { return SourceLocation(line: index + 1, column: column) }
            if !Self.isLineBreak(scalar.value) { column += 1 }
        }
        // Past the line's last scalar: the next line's first, or the end of the text.
        let endsInBreak = Self.scalars(text).last.map { Self.isLineBreak($0.value) } ?? false
        return endsInBreak ? SourceLocation(line: index + 2, column: 1) : SourceLocation(line: index + 1, column: column)
    }

    /// The scalar at `location`; nil when there is none.
    func scalar(at location: SourceLocation) -> Unicode.Scalar? {
        guard let text = bytes(ofLine: location.line) else { return nil }
        var column = 1
        for scalar in Self.scalars(text) {
            if column == location.column { return scalar.value }
            if !Self.isLineBreak(scalar.value) { column += 1 }
        }
        return nil
    }

    /// The bytes of 1-based line `number` with its line break; nil past the end.
    private func bytes(ofLine number: Int) -> ArraySlice<UInt8>? {
        guard starts.indices.contains(number - 1) else { return nil }
        return bytes[starts[number - 1]..<(number < starts.count ? starts[number] : end)]
    }

    /// The scalars of `text` (UTF-8 up to `end`, so valid) with their offsets.
    private static func scalars(_ text: ArraySlice<UInt8>) -> [(offset: Int, value: Unicode.Scalar)] {
        var scalars: [(offset: Int, value: Unicode.Scalar)] = []
        var offset = text.startIndex
        var iterator = text.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            scalars.append((offset, scalar))
            offset += UTF8.width(scalar)
        }
        return scalars
    }

    /// The scalar whose UTF-8 starts at `offset`; nil when the bytes there are not UTF-8.
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Unicode.Scalar? {
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return scalar
    }

    /// True for the scalars that end a line: `\n`, `\r`, NEL, LS, PS.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}": true
        default: false
        }
    }
}
