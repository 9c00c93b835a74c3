import Glibc

/// This process as the journal, the state, lock messages and PostgreSQL sessions name it:
/// its pid and its host name (`gethostname`), written `pid@host`.
package enum ProcessIdentity {
    package static let pid: Int32 = getpid()

    package static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// This process as `pid@host`, e.g. `4242@web-1`.
    package static var text: String { "\(pid)@\(host)" }

    /// The pid and host of a `pid@host` text (the host may itself contain `@`); nil otherwise.
    package static func parse(_ text: some StringProtocol) -> (pid: Int32, host: String)? {
        guard let at = text.firstIndex(of: "@"), let pid = Int32(text[..<at]) else { return nil }
        return (pid, String(text[text.index(after: at)...]))
    }
}
