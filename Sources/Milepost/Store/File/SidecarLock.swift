import MilepostSystem
import Synchronization
import SystemPackage

/// The file store's lock (`LockFile`: a `flock(2)` that dies with its holder, the holder named in
/// the file for messages) on a file of any name, for a store that keeps its data elsewhere: the
/// SQLite store locks `PATH.milepost-lock` beside its database. The file is created owner-only
/// and never renamed or deleted; nothing here creates the directory.
package struct SidecarLock: Sendable {
    /// The directory holding the lock file.
    package let directory: String
    /// The lock file's name in `directory`.
    package let name: String
    /// The lock file's path, for messages.
    package var path: String { directory + "/" + name }

    package init(directory: String, name: String) {
        self.directory = directory
        self.name = name
    }

    /// The holder while someone holds the lock; nil when nobody does, or when there is no lock
    /// file (or no directory). Modifies nothing.
    package func holder() throws(StoreError) -> LockHolder? {
        do throws(FileCallError) {
            guard let opened = try StoreDirectory.openIfExists(directory) else { return nil }
            return try LockFile(directory: opened, name: name).currentHolder()
        } catch {
            throw StoreError(error)
        }
    }

    /// Takes the lock, trying again until `timeout` has passed, and records `holder` in the file.
    /// - throws: `StoreError.lockTimeout` naming `location` and the holder when the wait runs out;
    ///   `StoreError.io` when the directory or file cannot be opened; `CancellationError`.
    package func acquire(timeout: Duration, location: String, holder: LockHolder) async throws -> Held {
        let descriptor: FileDescriptor
        do {
            let opened = try StoreDirectory.open(directory)
            descriptor = try await LockFile(directory: opened, name: name).acquire(timeout: timeout, location: location)
        } catch let error as FileCallError {
            throw StoreError(error)
        }
        let held = Held(descriptor: descriptor, path: path)
        do throws(FileCallError) {
            try LockFile.record(holder, in: descriptor, path)
        } catch {
            held.release()
            throw StoreError(error)
        }
        return held
    }

    /// A lock this process holds through an open descriptor of the lock file.
    package final class Held: Sendable {
        /// The descriptor holding the `flock`; nil once released.
        private let descriptor: Mutex<FileDescriptor?>
        private let path: String

        fileprivate init(descriptor: FileDescriptor, path: String) {
            self.descriptor = Mutex(descriptor)
            self.path = path
        }

        /// Releases the lock if `release()` was never called, so the descriptor cannot leak.
        deinit { release() }

        /// Drops the lock (`LockFile.release`). Harmless when already released.
        package func release() {
            descriptor.withLock { descriptor in
                guard let held = descriptor else { return }
                LockFile.release(held, path)
                descriptor = nil
            }
        }
    }
}
