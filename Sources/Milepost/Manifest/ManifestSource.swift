/// A manifest's path and bytes, kept so diagnostics can quote the offending line.
public struct ManifestSource: Sendable {
    public let path: String
    public let bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// The directory of `path` (`.` for a bare file name).
    public var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The text of 1-based line `number`, without its line break; nil past the end.
    public func line(_ number: Int) -> String? {
        var current = 1
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            if current == number { return text(start..<index) }
            current += 1
            start = index + 1
        }
        return current == number && start < bytes.count ? text(start..<bytes.count) : nil
    }

    private func text(_ range: Range<Int>) -> String {
        var slice = bytes[range]
        if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}
