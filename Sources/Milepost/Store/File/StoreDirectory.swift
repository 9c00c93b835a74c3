import MilepostSystem
import SystemPackage

/// The store's directory, opened once: every file in it is opened, renamed and removed relative
/// to this descriptor, and never through a symbolic link (`O_NOFOLLOW`). A link planted in the
/// store (`lock -> /etc/shadow`) makes the call fail with `ELOOP` instead of reaching its target;
/// `StoreError(_:)` reports it as `.symbolicLink`. The directory's own path may be a link: the
/// operator chose it.
final class StoreDirectory: Sendable {
    /// The directory's path, for messages.
    let path: String
    private let descriptor: FileDescriptor

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { FileCalls.close(descriptor) }

    /// Opens the directory at `path`.
    static func open(_ path: String) throws(FileCallError) -> StoreDirectory {
        StoreDirectory(path: path, descriptor: try FileCalls.open(path, .readOnly, options: .directory))
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

    /// Every file of the store is created owner-only: the journal holds the tails of steps'
    /// stderr, as private as the state.
    static let filePermissions: FilePermissions = .ownerReadWrite

    /// Opens the file `name` in the directory, never following a link; returns its descriptor.
    /// A file it creates (`.create`) gets `filePermissions`.
    func open(
        _ name: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = []
    ) throws(FileCallError) -> FileDescriptor {
        try FileCalls.open(
            at: descriptor, name, access, options: options.union(.noFollow), permissions: Self.filePermissions,
            path: path(of: name))
    }

    /// `open(_:_:options:)`; nil when the file does not exist.
    func openIfExists(
        _ name: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions = []
    ) throws(FileCallError) -> FileDescriptor? {
        do throws(FileCallError) {
            return try open(name, access, options: options)
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
