extension String {
    /// Whether the text's UTF-8 holds `byte`, searched in its contiguous storage: `utf8.contains`
    /// steps the view's iterator byte by byte, which costs several times more.
    package func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }
}
