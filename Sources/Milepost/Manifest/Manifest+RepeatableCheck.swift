import MilepostYAML

extension Manifest {
    /// Whether the manifest at `path` (a Unicode path, `PathText`) may have repeatable steps
    /// (`repeat: on-change`), told from its bytes without parsing them: whether the word `repeat`
    /// is written anywhere in it (a comment too). A manifest that cannot be read, or is over
    /// `maxBytes`, has none here: loading it reports that. A key spelled with escapes in a quoted
    /// scalar (`"rep\x65at"`) is the one spelling this misses.
    ///
    /// Cheap enough for an up-to-date `run` (one read of the file, no YAML), which uses it to decide
    /// whether it must read the manifest before answering (`RunOptions.checksRepeatableSteps`).
    public static func mayHaveRepeatableSteps(path: String, maxBytes: Int) -> Bool {
        guard let bytes = try? YAMLSource.read(path: path, maxBytes: maxBytes) else { return false }
        let word = Array("repeat".utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            guard buffer.count >= word.count else { return false }
            for start in 0...(buffer.count - word.count) where buffer[start] == word[0] {
                if buffer[start..<start + word.count].elementsEqual(word) { return true }
            }
            return false
        }
    }
}
