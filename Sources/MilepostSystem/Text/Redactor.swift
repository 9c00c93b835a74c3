/// Replaces secret values with `***` in text and in streams of bytes (a child's output copied as it
/// arrives): bytes that may begin a secret are held back until the next bytes say whether they do.
package struct Redactor: Sendable {
    package static let mask: [UInt8] = Array("***".utf8)

    private let secrets: [[UInt8]]
    private var pending: [UInt8] = []

    /// A redactor of `secrets` (empty ones are ignored; a longer secret is matched before a shorter one).
    package init(_ secrets: [String]) {
        self.secrets = Set(secrets.filter { !$0.isEmpty }).map { Array($0.utf8) }.sorted { $0.count > $1.count }
    }

    /// True when there is nothing to redact.
    package var isEmpty: Bool { secrets.isEmpty }

    /// `text` with every secret replaced by `***`.
    package func redact(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var redactor = self
        let bytes = redactor.feed(Array(text.utf8)) + redactor.finish()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of `chunk` (after those held back) that can be written now, secrets masked.
    package mutating func feed<Bytes: Collection<UInt8>>(_ chunk: Bytes) -> [UInt8] {
        guard !secrets.isEmpty else { return Array(chunk) }
        pending.append(contentsOf: chunk)
        return drain(final: false)
    }

    /// What is still held back, at the end of the stream.
    package mutating func finish() -> [UInt8] {
        drain(final: true)
    }

    private mutating func drain(final: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(pending.count)
        var index = 0
        scanning: while index < pending.count {
            let rest = pending[index...]
            for secret in secrets where secret.first == rest.first {
                if rest.starts(with: secret) {
                    output += Self.mask
                    index += secret.count
                    continue scanning
                }
                if !final, rest.count < secret.count, secret.starts(with: rest) { break scanning }
            }
            output.append(pending[index])
            index += 1
        }
        pending.removeFirst(index)
        return output
    }
}
