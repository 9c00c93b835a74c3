import Milepost

extension FuzzTarget {
    /// `milepost.lock`, as `validate --locked` reads it.
    static let manifestLock = FuzzTarget(
        name: "manifest-lock",
        summary: "milepost.lock bytes → ManifestLock.parse; every entry is ID and 16 hex digits, each id once; "
            + "a line that is not one is an error on its line; CRLF line ends read as LF"
    ) { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let (lock, errors) = ManifestLock.parse(text, file: "milepost.lock")
        let lineCount = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        for entry in lock.entries {
            try oracle(
                !entry.id.isEmpty && !entry.id.contains(where: \.isWhitespace) && entry.fingerprint.utf8.count == 16
                    && entry.fingerprint.allSatisfy(\.isHexDigit),
                "an entry that is not ID FINGERPRINT: \(entry)")
            try oracle((1...lineCount).contains(entry.line), "an entry on line \(entry.line) of \(lineCount)")
        }
        try oracle(Set(lock.entries.map(\.id)).count == lock.entries.count, "an id locked twice was taken")
        for error in errors {
            try oracle(error.location.map { (1...lineCount).contains($0.line) } ?? false, "an error not on a line: \(error)")
        }
        // A lock file checked out with CRLF line ends (git's autocrlf) locks the same steps.
        let crlf = String(decoding: crlfLineEnds(bytes), as: UTF8.self)
        let (crlfLock, crlfErrors) = ManifestLock.parse(crlf, file: "milepost.lock")
        try oracle(
            crlfLock.entries.map(\.id) == lock.entries.map(\.id) && crlfLock.entries.map(\.fingerprint) == lock.entries.map(\.fingerprint)
                && crlfErrors.count == errors.count,
            "CRLF line ends change what the lock file says")
    }
}
