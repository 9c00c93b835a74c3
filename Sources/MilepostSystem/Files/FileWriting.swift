package import Glibc

/// Writing a file a person owns and edits (a manifest), whole or not at all. Paths are paths'
/// texts (`PathText`). Every write loops on short writes and `EINTR` (`FileCalls.write`) and is
/// made durable with `fsync(2)` of the file and of its directory before it counts as done.
package enum FileWriting {
    /// Creates `path` holding `bytes` with `mode`; never replaces an existing file (`O_EXCL`, so
    /// also not one another process creates at the same moment: that is `EEXIST`). When the write
    /// fails (a full disk), the file it created is removed: nothing half-written is left.
    package static func create(_ path: String, _ bytes: [UInt8], mode: mode_t) throws(FileCallError) {
        let descriptor = try FileCalls.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: mode)
        do throws(FileCallError) {
            defer { FileCalls.close(descriptor) }
            try FileCalls.write(descriptor, bytes, path)
            try FileCalls.sync(descriptor, path)
        } catch {
            try? FileCalls.remove(path)
            throw error
        }
        try FileCalls.syncDirectory(directory(of: path))
    }

    /// Replaces the contents of the existing file `path` with `bytes`, atomically: readers see the
    /// old bytes or the new, never a mix. A symbolic link is followed: the file it names is
    /// replaced, in its own directory, and the link stays a link. The new file gets the old one's
    /// mode, owner and group (a temp file beside it is written, given those, synced, then renamed
    /// over it). When the owner cannot be kept (another user's file, and no right to `chown`),
    /// nothing is replaced and the error says so.
    package static func replace(_ path: String, with bytes: [UInt8]) throws(FileCallError) {
        let target = try FileCalls.resolvingLinks(path)
        let existing = try FileCalls.open(target, O_RDONLY | O_CLOEXEC)
        defer { FileCalls.close(existing) }
        let old = try FileCalls.ownership(existing, target)
        let directory = directory(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? target
        let temp = directory + "/." + name + ".milepost-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let descriptor = try FileCalls.open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600)
        do throws(FileCallError) {
            defer { FileCalls.close(descriptor) }
            try FileCalls.write(descriptor, bytes, temp)
            try FileCalls.setOwnership(descriptor, mode: old.mode, owner: old.owner, group: old.group, target)
            try FileCalls.sync(descriptor, temp)
        } catch {
            try? FileCalls.remove(temp)
            throw error
        }
        do throws(FileCallError) {
            try FileCalls.rename(temp, to: target)
        } catch {
            try? FileCalls.remove(temp)
            throw error
        }
        try FileCalls.syncDirectory(directory)
    }

    /// The directory of `path` (`.` for a bare name, `/` for a file at the root).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
