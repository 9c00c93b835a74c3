import MilepostSystem

extension StoreError {
    /// A failed system call as an I/O error on the file it was about.
    init(_ error: FileCallError) {
        self = .io(location: error.path, reason: error.reason)
    }
}
