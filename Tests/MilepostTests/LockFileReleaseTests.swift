import Glibc
import Testing
@testable import Milepost

/// The file store's lock (and the SQLite store's, `SidecarLock`) is a `flock` on an open file
/// description. A child that another thread is spawning shares that description until it execs;
/// a release must free the lock at once all the same.
@Suite struct LockFileReleaseTests {
    let scratch: StoreFixture.ScratchDirectory

    init() throws { scratch = try StoreFixture.ScratchDirectory() }

    @Test func aReleasedLockIsFreeAtOnceWhileACopyOfItsDescriptorIsStillOpen() async throws {
        try #require(mkdir(scratch.directory, 0o700) == 0)
        let lock = LockFile(directory: try StoreDirectory.open(scratch.directory))
        let held = try await lock.acquire(timeout: .zero, location: scratch.directory)
        // What a child forked by another thread holds between its fork and its exec.
        let copy = dup(held.rawValue)
        try #require(copy >= 0)
        defer { close(copy) }
        LockFile.release(held, lock.path)

        let again = try await lock.acquire(timeout: .zero, location: scratch.directory)
        LockFile.release(again, lock.path)
    }
}
