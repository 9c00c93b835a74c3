import Glibc

/// The live processes of a process group, read from `/proc`: what tells whether a step's
/// processes outlived the runner that started them.
package enum ProcessGroupScan {
    /// The pids, in increasing order, of the processes in group `group` that have not exited
    /// (zombies, dead and waiting to be reaped, are left out). Processes in another pid namespace
    /// are not seen.
    package static func members(of group: Int32) -> [Int32] {
        guard group > 0, let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var members: [pid_t] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(name), let (state, processGroup) = status(of: pid) else { continue }
            if processGroup == group, state != "Z", state != "X" { members.append(pid) }
        }
        return members.sorted()
    }

    /// The state letter and the process group of `pid`, from `/proc/PID/stat`; nil when it is gone.
    private static func status(of pid: pid_t) -> (state: Character, group: pid_t)? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // `pid (comm) state ppid pgrp …`: the command may hold spaces and parentheses; the last `)` ends it.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count >= 3, let state = fields[0].first, let group = pid_t(String(decoding: fields[2], as: UTF8.self)) else {
            return nil
        }
        return (Character(UnicodeScalar(state)), group)
    }
}
