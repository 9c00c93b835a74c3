import MilepostSystem
import SystemPackage

extension StoreError {
    /// A failed system call as an I/O error on the file it was about.
    init(_ error: FileCallError) {
        self = .io(location: error.path, reason: Reason(error))
    }

    /// A failed system call on `state.json`: the state cannot be read.
    static func unreadableState(_ error: FileCallError) -> StoreError {
        .unreadableState(location: error.path, reason: Reason(error))
    }
}

extension StoreError.Reason {
    /// The call and its errno; `.symbolicLink` for `ELOOP`, which is what opening a link with
    /// `O_NOFOLLOW` (as every file of the store is opened) fails with.
    init(_ error: FileCallError) {
        self = error.errno == .tooManySymbolicLinkLevels ? .symbolicLink : .system(call: error.call, errno: error.errno)
    }
}
