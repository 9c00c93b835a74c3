import Glibc

/// The live processes of a process group, read from `/proc`: what tells whether a step's
/// processes outlived the runner that started them.
package enum ProcessGroupScan {
    /// The pids, in increasing order, of the processes in group `group` that have not exited
    /// (zombies, dead and waiting to be reaped, are left out). Processes in another pid namespace
    /// are not seen.
    ///
    /// With `leaderStart` (`startTime(of:)` of the group's leader when it was recorded): a live
    /// process whose pid is `group` but that started at another time means the id was recycled —
    /// the recorded group is gone and a new one has its number — so none is returned. (Linux hands
    /// out a group's id again only once every process of the group is gone.)
    package static func members(of group: Int32, leaderStart: UInt64? = nil) -> [Int32] {
        guard group > 0, let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        if let leaderStart, let leader = status(of: group), leader.start != leaderStart { return [] }
        var members: [pid_t] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(name), let process = status(of: pid) else { continue }
            if process.group == group, process.state != "Z", process.state != "X" { members.append(pid) }
        }
        return members.sorted()
    }

    /// When `pid` started, in clock ticks after boot (`/proc/PID/stat`'s `starttime`): with the pid,
    /// it names one process for the whole boot. Nil when it is gone.
    package static func startTime(of pid: Int32) -> UInt64? {
        status(of: pid)?.start
    }

    /// The state letter, the process group and the start time of `pid`, from `/proc/PID/stat`; nil when it is gone.
    private static func status(of pid: pid_t) -> (state: Character, group: pid_t, start: UInt64)? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // `pid (comm) state ppid pgrp …`: the command may hold spaces and parentheses; the last `)` ends it.
        guard let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        // After the command: state (field 3), ppid, pgrp (5), …, starttime (22).
        guard fields.count >= 20, let state = fields[0].first, let group = pid_t(String(decoding: fields[2], as: UTF8.self)),
              let start = UInt64(String(decoding: fields[19], as: UTF8.self))
        else {
            return nil
        }
        return (Character(UnicodeScalar(state)), group, start)
    }
}
