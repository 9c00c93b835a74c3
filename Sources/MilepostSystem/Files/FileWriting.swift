import SystemPackage

/// Writing a file whole or not at all: a manifest a person owns and edits, or a file Milepost
/// generates (a lock file, a metrics file). Paths are paths' texts (`PathText`). Every write loops on short writes and `EINTR` (`FileCalls.write`) and is
/// made durable with `fsync(2)` of the file and of its directory before it counts as done.
package enum FileWriting {
    /// What `create` and `write` give the file: 0644 (less the umask), anyone may read it.
    private static let permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]

    /// Creates `path` holding `bytes`, mode 0644; never replaces an existing file (`O_EXCL`, so
    /// also not one another process creates at the same moment: that is `EEXIST`). When the write
    /// fails (a full disk), the file it created is removed: nothing half-written is left.
    package static func create(_ path: String, _ bytes: [UInt8]) throws(FileCallError) {
        let descriptor = try FileCalls.open(path, .writeOnly, options: [.create, .exclusiveCreate], permissions: permissions)
        do throws(FileCallError) {
            defer { FileCalls.close(descriptor) }
            try FileCalls.write(descriptor, bytes, path)
            try FileCalls.sync(descriptor, path)
        } catch {
            try? FileCalls.remove(path)
            throw error
        }
        try FileCalls.syncDirectory(PathText.directory(of: path))
    }

    /// Replaces the contents of the existing file `path` with `bytes`, atomically: readers see the
    /// old bytes or the new, never a mix. A symbolic link is followed: the file it names is
    /// replaced, in its own directory, and the link stays a link. The new file gets the old one's
    /// mode, owner and group (a temp file beside it is written, given those, synced, then renamed
    /// over it). When the owner cannot be kept (another user's file, and no right to `chown`),
    /// nothing is replaced and the error says so.
    package static func replace(_ path: String, with bytes: [UInt8]) throws(FileCallError) {
        let target = try FileCalls.resolvingLinks(path)
        let existing = try FileCalls.open(target, .readOnly)
        defer { FileCalls.close(existing) }
        let old = try FileCalls.ownership(existing, target)
        try renameOver(target, bytes, permissions: .ownerReadWrite) { descriptor throws(FileCallError) in
            try FileCalls.setOwnership(descriptor, permissions: old.permissions, owner: old.owner, group: old.group, target)
        }
    }

    /// Writes `path` whole, creating it mode 0644 or replacing what is there, atomically: readers
    /// see the old file or the new one, never a part (a temp file beside it, synced, renamed over
    /// it). For files Milepost generates; what is at `path`, a link included, is replaced.
    package static func write(_ path: String, _ bytes: [UInt8]) throws(FileCallError) {
        try renameOver(path, bytes, permissions: permissions) { _ throws(FileCallError) in }
    }

    /// The one way both replace a file: `bytes` into a new temp file `.NAME.milepost-RANDOM` beside
    /// `target` (created with `permissions`, then `prepare`d, then synced), renamed over `target`, and the
    /// directory synced. The temp file is removed when any of it fails.
    private static func renameOver(
        _ target: String, _ bytes: [UInt8], permissions: FilePermissions,
        prepare: (FileDescriptor) throws(FileCallError) -> Void
    ) throws(FileCallError) {
        let directory = PathText.directory(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? target
        let temp = directory + "/." + name + ".milepost-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let descriptor = try FileCalls.open(temp, .writeOnly, options: [.create, .exclusiveCreate], permissions: permissions)
        do throws(FileCallError) {
            defer { FileCalls.close(descriptor) }
            try FileCalls.write(descriptor, bytes, temp)
            try prepare(descriptor)
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
}
