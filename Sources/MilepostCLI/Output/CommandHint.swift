/// A `milepost …` command line to suggest, carrying the `--store` and `--manifest` the user gave so
/// that it works when pasted as printed.
struct CommandHint {
    var store: String?
    var manifest: String?

    func milepost(_ arguments: String...) -> String {
        let flags = [store.map { ["--store", $0] }, manifest.map { ["--manifest", $0] }].compactMap { $0 }.flatMap { $0 }
        return (["milepost"] + arguments + flags).map(Self.quoted).joined(separator: " ")
    }

    /// `text` as one shell word.
    static func quoted(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_./:=@%+,".unicodeScalars.contains($0))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
