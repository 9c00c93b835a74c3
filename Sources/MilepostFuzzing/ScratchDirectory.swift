import FoundationEssentials
import MilepostSystem
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under `TMPDIR` (`fuzz/run.sh` points it at `/dev/shm`) holding `files`, for the
/// targets that read a store's files as the store does; removed once `body` returns.
func withStoreDirectory<T>(_ files: [String: [UInt8]], _ body: (String) async throws -> T) async throws -> T {
    var template = Array("\(ProcessEnvironment.value("TMPDIR") ?? "/tmp")/milepost-fuzz.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw FuzzFinding("cannot make a directory under TMPDIR: errno \(errno)") }
    let path = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: path) }
    for (name, bytes) in files {
        guard FileManager.default.createFile(atPath: path + "/" + name, contents: Data(bytes)) else {
            throw FuzzFinding("cannot write \(path)/\(name)")
        }
    }
    return try await body(path)
}
