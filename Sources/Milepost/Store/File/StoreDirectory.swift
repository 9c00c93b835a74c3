import Glibc
import MilepostSystem

/// The store's directory, opened once: every file in it is opened, renamed and removed relative
/// to this descriptor, and never through a symbolic link (`O_NOFOLLOW`). A link planted in the
/// store (`lock -> /etc/shadow`) makes the call fail with `ELOOP` instead of reaching its target;
/// `StoreError(_:)` reports it as `.symbolicLink`. The directory's own path may be a link: the
/// operator chose it.
final class StoreDirectory: Sendable {
    /// The directory's path, for messages.
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { FileCalls.close(descriptor) }

    /// Opens the directory at `path`.
    static func open(_ path: String) throws(FileCallError) -> StoreDirectory {
        StoreDirectory(path: path, descriptor: try FileCalls.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    }

    /// Opens the directory at `path`; nil when it does not exist.
    static func openIfExists(_ path: String) throws(FileCallError) -> StoreDirectory? {
        do throws(FileCallError) {
            return try open(path)
        } catch where error.errno == .noSuchFileOrDirectory {
            return nil
        }
    }

    /// The path of the entry `name`, for messages.
    func path(of name: String) -> String { path + "/" + name }

    /// Opens the file `name` in the directory, never following a link; returns its descriptor.
    func open(_ name: String, _ flags: Int32, mode: mode_t = 0) throws(FileCallError) -> Int32 {
        try FileCalls.open(at: descriptor, name, flags | O_NOFOLLOW | O_CLOEXEC, mode: mode, path: path(of: name))
    }

    /// `open(_:_:mode:)`; nil when the file does not exist.
    func openIfExists(_ name: String, _ flags: Int32) throws(FileCallError) -> Int32? {
        do throws(FileCallError) {
            return try open(name, flags)
        } catch where error.errno == .noSuchFileOrDirectory {
            return nil
        }
    }

    /// Renames the entry `source` to `destination`, replacing it (a link named `destination` is
    /// replaced, not followed).
    func rename(_ source: String, to destination: String) throws(FileCallError) {
        try FileCalls.rename(at: descriptor, source, to: destination, path: path(of: source))
    }

    /// Removes the entry `name` (a link itself, never its target).
    func remove(_ name: String) throws(FileCallError) {
        try FileCalls.remove(at: descriptor, name, path: path(of: name))
    }

    /// The names of the entries.
    func entries() throws(FileCallError) -> [String] {
        try FileCalls.entries(at: descriptor, path: path)
    }

    /// Makes the entries created, renamed or removed in the directory durable.
    func sync() throws(FileCallError) {
        try FileCalls.sync(descriptor, path)
    }
}
