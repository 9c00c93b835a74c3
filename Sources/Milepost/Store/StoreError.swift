import MilepostSystem

/// Failures of a store, each mapped to one exit code by the command line.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state exists but cannot be read or decoded (exit 74). It is never overwritten.
    case unreadableState(location: String, reason: String)
    /// Reading or writing the state, journal or lock failed (exit 74).
    case io(location: String, reason: String)
    /// The lock was not acquired in time (exit 75).
    case lockTimeout(location: String, waited: Duration, holder: LockHolder?)
    /// The store cannot be reached at all (exit 69).
    case unreachable(location: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableState(let location, let reason):
            "cannot read the state in \(location): \(reason). The file was left untouched; "
                + "restore it from a backup, or move it away and run `milepost baseline VERSION` to start over"
        case .io(let location, let reason):
            "I/O error on the store \(location): \(reason)"
        case .lockTimeout(let location, let waited, let holder):
            "could not take the lock of \(location) within \(DurationText.format(waited)): "
                + (holder.map { "held by \($0)" } ?? "held by another process")
        case .unreachable(let location, let reason):
            "cannot reach the store \(location): \(reason)"
        }
    }
}
