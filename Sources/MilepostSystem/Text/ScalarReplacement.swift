extension String {
    /// The text with every `scalar` replaced by `replacement`, compared scalar by scalar (so `\r` is
    /// found inside `\r\n`, which is one `Character`), as Foundation's `replacingOccurrences` did.
    package func replacing(scalar: Unicode.Scalar, with replacement: String) -> String {
        var result = String.UnicodeScalarView()
        for next in unicodeScalars {
            if next == scalar { result.append(contentsOf: replacement.unicodeScalars) } else { result.append(next) }
        }
        return String(result)
    }
}
