package import Glibc

/// A whole file replaced atomically: written to a temp file in the same directory
/// (`.NAME.tmp.PID`), then renamed over the path, so a reader sees the old file or the new one,
/// never a part. Not fsynced: for files that are re-created on the next run (node_exporter's
/// textfile collector reads them, and ignores names that do not end in `.prom`).
package enum ReplacedFile {
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o644) throws(FileCallError) {
        let slash = path.lastIndex(of: "/")
        let directoryPath = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let tempName = ".\(name).tmp.\(ProcessIdentity.pid)"
        let tempPath = directoryPath + "/" + tempName
        let directory = try FileCalls.open(directoryPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { FileCalls.close(directory) }
        let descriptor = try FileCalls.open(
            at: directory, tempName, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, mode: mode, path: tempPath)
        var failure: FileCallError?
        do { try FileCalls.write(descriptor, bytes, tempPath) } catch { failure = error }
        FileCalls.close(descriptor)
        do throws(FileCallError) {
            if let failure { throw failure }
            try FileCalls.rename(at: directory, tempName, to: name, path: path)
        } catch {
            try? FileCalls.remove(at: directory, tempName, path: tempPath)
            throw error
        }
    }
}
