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

    /// This boot of the machine (`/proc/sys/kernel/random/boot_id`, new at each boot); "unknown"
    /// when it cannot be read. A pid names the same process only within one boot.
    package static let bootID: String = firstLine(of: "/proc/sys/kernel/random/boot_id") ?? "unknown"

    /// The pid namespace this process sees pids in (`/proc/self/ns/pid`, e.g. `pid:[4026531836]`);
    /// "unknown" when it cannot be read. Two containers may share a host name and a boot, never this.
    package static let pidNamespace: String = {
        var buffer = [CChar](repeating: 0, count: 128)
        let count = readlink("/proc/self/ns/pid", &buffer, buffer.count - 1)
        guard count > 0 else { return "unknown" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    private static func firstLine(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let line = String(decoding: buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.isEmpty ? nil : line
    }

    /// This process as `pid@host`, e.g. `4242@web-1`.
    package static var text: String { "\(pid)@\(host)" }

    /// The pid and host of a `pid@host` text (the host may itself contain `@`); nil otherwise.
    package static func parse(_ text: some StringProtocol) -> (pid: Int32, host: String)? {
        guard let at = text.firstIndex(of: "@"), let pid = Int32(text[..<at]) else { return nil }
        return (pid, String(text[text.index(after: at)...]))
    }
}
