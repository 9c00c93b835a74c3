import Glibc
package import SystemPackage

/// systemd's notification protocol (`sd_notify(3)`), spoken directly, without libsystemd: one
/// datagram per message to the `AF_UNIX`/`SOCK_DGRAM` socket named by `NOTIFY_SOCKET`, each message
/// newline-separated `NAME=value` assignments (`STATUS=…`, `EXTEND_TIMEOUT_USEC=…`).
///
/// ```swift
/// if let notifier = try ServiceManagerNotifier.fromEnvironment() {
///     try notifier.send([("EXTEND_TIMEOUT_USEC", "30000000"), ("STATUS", "running 2.7/reindex")])
/// }
/// ```
///
/// The address is a file system path (absolute) or, with a leading `@`, a name in Linux's abstract
/// namespace (the `@` stands for the leading NUL byte). The socket is close-on-exec, so a step never
/// inherits it, and non-blocking: a service manager that does not read its queue makes `send`
/// throw `EAGAIN` at once rather than stall the run. Every message is sent with `MSG_NOSIGNAL`.
///
/// Glibc, not swift-system: swift-system 1.8.1 has no socket calls (`socket`, `sendto`,
/// `sockaddr_un`); the descriptor is still held and closed as a `FileDescriptor`.
package final class ServiceManagerNotifier: Sendable {
    /// The variable a service manager sets to the address of its notification socket.
    package static let environmentVariable = "NOTIFY_SOCKET"

    /// The largest datagram systemd reads (its `NOTIFY_BUFFER_MAX`, `PIPE_BUF`); longer ones are cut.
    package static let maximumMessageBytes = 4096

    /// Why the socket could not be opened or a message not sent: the call and `errno`, or an address
    /// this type does not speak to.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// A system call failed.
        case call(String, Errno)
        /// The address is neither an absolute path nor an abstract name (`@…`): e.g. `vsock:…`, or relative.
        case unsupportedAddress(String)
        /// The address does not fit `sockaddr_un` (108 bytes with its NUL).
        case addressTooLong(String)

        package var description: String {
            switch self {
            case .call(let call, let errno): "\(call): \(errno)"
            case .unsupportedAddress(let address): "unsupported notification socket address '\(PathText.readable(address))'"
            case .addressTooLong(let address): "notification socket address too long: '\(PathText.readable(address))'"
            }
        }
    }

    /// The address as `NOTIFY_SOCKET` gave it.
    package let address: String
    /// `sun_path`'s bytes: the path without its NUL, or NUL and the abstract name.
    private let pathBytes: [UInt8]
    /// Whether `sun_path` ends with a NUL that counts in the address length (a path, not an abstract name).
    private let isPath: Bool
    private let descriptor: FileDescriptor

    /// A notifier for `NOTIFY_SOCKET`, read through `ProcessEnvironment`; nil when it is unset or empty.
    /// - throws: `Failure` for an address this type does not speak to, or when the socket cannot be created.
    package static func fromEnvironment() throws(Failure) -> ServiceManagerNotifier? {
        guard let address = ProcessEnvironment.value(environmentVariable), !address.isEmpty else { return nil }
        return try ServiceManagerNotifier(address: address)
    }

    /// Creates the sending socket (`socket(2)`) for `address`: an absolute path, or `@name`.
    package init(address: String) throws(Failure) {
        var bytes = PathText.bytes(address)
        switch bytes.first {
        case UInt8(ascii: "/"): isPath = true
        case UInt8(ascii: "@") where bytes.count > 1: isPath = false; bytes[0] = 0
        default: throw .unsupportedAddress(address)
        }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        guard bytes.count + (isPath ? 1 : 0) <= capacity else { throw .addressTooLong(address) }
        let raw = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard raw >= 0 else { throw .call("socket", Errno(rawValue: errno)) }
        self.address = address
        self.pathBytes = bytes
        self.descriptor = FileDescriptor(rawValue: raw)
    }

    deinit { try? descriptor.close() }

    /// Sends `assignments` as one message: `NAME=value` lines, each ending in a newline. A newline or
    /// other control character in a value becomes a space, so a value cannot add an assignment.
    /// - throws: `Failure.call("sendto", …)`: nobody listens (`ECONNREFUSED`, `ENOENT`), the queue is
    ///   full (`EAGAIN`), the message is too long (`EMSGSIZE`), …
    package func send(_ assignments: [(name: String, value: String)]) throws(Failure) {
        try send(message: Self.message(assignments))
    }

    /// The datagram of `assignments`, cut to `maximumMessageBytes` at a line's end.
    package static func message(_ assignments: [(name: String, value: String)]) -> [UInt8] {
        var message: [UInt8] = []
        for (name, value) in assignments {
            let line = Array("\(name)=\(value.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : String($0) }.joined())\n".utf8)
            guard message.count + line.count <= maximumMessageBytes else { break }
            message += line
        }
        return message
    }

    /// Sends one datagram (`sendto(2)` with `MSG_NOSIGNAL`), retried on `EINTR`.
    private func send(message: [UInt8]) throws(Failure) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in path.copyBytes(from: pathBytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count + (isPath ? 1 : 0))
        while true {
            let sent = message.withUnsafeBytes { bytes in
                withUnsafePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                        sendto(descriptor.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                    }
                }
            }
            if sent >= 0 { return }
            if errno != EINTR { throw .call("sendto", Errno(rawValue: errno)) }
        }
    }
}
