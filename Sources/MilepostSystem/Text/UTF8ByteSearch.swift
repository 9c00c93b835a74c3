extension String {
    /// Whether the text's UTF-8 holds `byte`, searched in its contiguous storage: `utf8.contains`
    /// steps the view's iterator byte by byte, which costs several times more.
    package func containsUTF8(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(byte) } ?? utf8.contains(byte)
    }

    /// Whether the text's UTF-8 holds `bytes`, one after the other, searched in its storage:
    /// `contains(_:)` with a `String` compares `Character`s, hundreds of instructions a byte.
    package func containsUTF8(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return true }
        var text = self
        return text.withUTF8 { text in
            guard text.count >= bytes.count else { return false }
            return (0...text.count - bytes.count).contains { start in
                text[start] == first && bytes.indices.allSatisfy { text[start + $0] == bytes[$0] }
            }
        }
    }
}
