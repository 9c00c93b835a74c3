package import Glibc

/// glibc functions that Swift's Glibc module does not import (they need `_GNU_SOURCE`),
/// resolved with `dlsym` and called with their C signatures.
package enum GNULibC {
    /// `posix_spawn_file_actions_addchdir_np(3)` (glibc 2.29).
    package static func posixSpawnFileActionsAddChdir(
        _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
    ) -> Int32 {
        typealias Function = @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32
        return unsafeBitCast(symbol("posix_spawn_file_actions_addchdir_np"), to: Function.self)(actions, path)
    }

    /// `posix_spawn_file_actions_addclosefrom_np(3)` (glibc 2.34); nil with an older C library.
    package static let posixSpawnFileActionsAddCloseFrom: (
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    )? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer {
        // A nil handle is RTLD_DEFAULT: search every loaded object.
        guard let address = dlsym(nil, name) else { preconditionFailure("this C library has no \(name)") }
        return address
    }
}
