import Glibc
import SystemPackage

/// What OpenSSH's `StrictModes` asks of a private key, asked of a file that root reads as
/// configuration (`--env-file`): that no other user could have written it. Its values end up in
/// commands root runs, so a file another user can change is code that user runs as root.
package enum RootOnlyPath {
    /// True when this process runs as root (effective user 0), the one case the check is for.
    package static var isRoot: Bool { geteuid() == 0 }

    /// Why another user than root could have written `path`: the file, or a directory from it up
    /// to `/` (links followed), belongs to another user, or is writable by a group other than root's
    /// or by everyone — except a directory with the sticky bit (`/tmp`), where no one else can
    /// replace root's file. Nil when none is; nil too when `path` cannot be looked at (reading it
    /// says why).
    package static func problem(_ path: String) -> String? {
        guard var current = try? FileCalls.resolvingLinks(path) else { return nil }
        var isFile = true
        while true {
            guard let status = try? PathText.filePath(current).stat() else { return nil }
            let what = (isFile ? "" : "its directory ") + PathText.readable(current)
            let mode = "mode " + String(status.permissions.rawValue & 0o7777, radix: 8)
            if status.userID.rawValue != 0 {
                return "\(what) belongs to user \(status.userID.rawValue), not root"
            }
            let sticky = !isFile && status.permissions.contains(.saveText)
            if status.permissions.contains(.otherWrite), !sticky {
                return "\(what) is writable by every user (\(mode))"
            }
            if status.permissions.contains(.groupWrite), status.groupID.rawValue != 0, !sticky {
                return "\(what) is writable by group \(status.groupID.rawValue) (\(mode))"
            }
            guard current != "/" else { return nil }
            let slash = current.lastIndex(of: "/") ?? current.startIndex
            current = slash == current.startIndex ? "/" : String(current[..<slash])
            isFile = false
        }
    }
}
