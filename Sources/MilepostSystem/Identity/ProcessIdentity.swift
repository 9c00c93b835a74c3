import Glibc

/// This process as the journal, the state and lock messages name it.
package enum ProcessIdentity {
    package static let pid: Int32 = getpid()

    package static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
