import Foundation

/// A service manager's end of `NOTIFY_SOCKET` for tests: a real `AF_UNIX` datagram socket bound to
/// a path, or to a name in the abstract namespace (`@…`), whose datagrams a thread reads as they
/// arrive, each with the moment it came.
final class NotifySocketReceiver: @unchecked Sendable {
    struct Datagram {
        var at: ContinuousClock.Instant
        var text: String

        /// The values of `name`'s assignments, in order (`STATUS=…` → the text after `=`).
        func values(_ name: String) -> [String] {
            text.split(separator: "\n").compactMap { line in
                line.hasPrefix(name + "=") ? String(line.dropFirst(name.count + 1)) : nil
            }
        }
    }

    /// What `NOTIFY_SOCKET` is set to.
    let address: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [Datagram] = []
    private var stopping = false
    private var reader: Thread?

    /// Binds a socket at `directory/notify.sock`, or, with `abstract`, at a fresh abstract name.
    init(in directory: String, abstract: Bool = false) throws {
        address = abstract ? "@milepost-test-\(UUID().uuidString)" : directory + "/notify.sock"
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var path = Array(address.utf8)
        if abstract { path[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + path.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let thread = Thread { [self] in read() }
        reader = thread
        thread.start()
    }

    deinit {
        close(descriptor)
        if !address.hasPrefix("@") { unlink(address) }
    }

    /// Every datagram so far.
    var datagrams: [Datagram] { lock.withLock { received } }

    /// Stops reading, after what is already queued; returns every datagram.
    func stop() -> [Datagram] {
        lock.withLock { stopping = true }
        while reader?.isFinished == false { usleep(1_000) }
        return datagrams
    }

    private func read() {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            if ready > 0 {
                let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count > 0 {
                    let datagram = Datagram(at: .now, text: String(decoding: buffer.prefix(count), as: UTF8.self))
                    lock.withLock { received.append(datagram) }
                }
                continue
            }
            if lock.withLock({ stopping }) { return }
        }
    }
}
