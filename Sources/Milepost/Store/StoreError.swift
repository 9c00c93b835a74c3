import MilepostSystem
public import SystemPackage

/// Failures of a store, each mapped to one exit code by the command line. The case is the stable
/// kind; the `Reason` keeps what the system or the database said (errno, SQLSTATE) as values, and
/// is worded only by `description`.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state exists but cannot be read or decoded (exit 74). It is never overwritten.
    case unreadableState(location: String, reason: Reason)
    /// Reading or writing the state, journal or lock failed (exit 74; 64 for an `invalidURL`).
    case io(location: String, reason: Reason)
    /// The lock was not acquired in time (exit 75).
    case lockTimeout(location: String, waited: Duration, holder: LockHolder?)
    /// The store cannot be reached at all (exit 69).
    case unreachable(location: String, reason: Reason)

    /// Why a store operation failed.
    public enum Reason: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
        /// A system call failed, e.g. `open` with `EACCES`.
        case system(call: String, errno: Errno)
        /// A file of the store is a symbolic link: Milepost never follows links inside its store.
        case symbolicLink
        /// The database refused, with its SQLSTATE when it sent one.
        case database(sqlState: SQLState?, message: String)
        /// The state's `format` is not one this version of Milepost reads.
        case unknownFormat(Int)
        /// The content does not decode; says where and why.
        case malformed(String)
        /// The store's URL cannot be used as written (a parameter it does not take, a value it cannot
        /// hold), in words: a usage error (exit 64), found before anything is read or written.
        case invalidURL(String)
        /// Anything else, in words (for instance from a store an application brings).
        case other(String)

        public init(stringLiteral value: String) { self = .other(value) }

        public init(stringInterpolation: DefaultStringInterpolation) {
            self = .other(String(stringInterpolation: stringInterpolation))
        }

        /// True when the system refused access (`EACCES`, `EPERM`, or SQLSTATE 42501): the data is
        /// intact, the process lacks the right to it.
        public var isPermissionDenied: Bool {
            switch self {
            case .system(_, let errno): errno == .permissionDenied || errno == .notPermitted
            case .database(let sqlState, _): sqlState == .insufficientPrivilege
            default: false
            }
        }

        public var description: String {
            switch self {
            case .system(let call, let errno): "\(call): \(errno.description)"
            case .symbolicLink: "it is a symbolic link, and Milepost does not follow links inside its store"
            case .database(let sqlState, let message):
                sqlState == .insufficientPrivilege ? "\(message) (see docs/postgres.md for the privileges Milepost needs)" : message
            case .unknownFormat(let format):
                "format \(format) is not one this version of Milepost knows "
                    + "(it reads format 1 to \(StoredState.currentFormat)); upgrade Milepost"
            case .malformed(let problem), .invalidURL(let problem), .other(let problem): problem
            }
        }
    }

    /// True for a statement cancelled on request (SQLSTATE 57014): by Milepost itself when its
    /// lock was lost, so the loss is the better error to report.
    public var isQueryCanceled: Bool {
        guard case .io(_, .database(let sqlState, _)) = self else { return false }
        return sqlState == .queryCanceled
    }

    public var description: String {
        switch self {
        case .unreadableState(let location, let reason) where reason.isPermissionDenied:
            "cannot read the state in \(location): \(reason). The state is not corrupt: give this user "
                + "read access to it (check the owner and mode of the file and its directory); do not move it "
                + "away or baseline, which would forget the completed steps"
        case .unreadableState(let location, .symbolicLink), .io(let location, .symbolicLink):
            "\(location) is a symbolic link; Milepost does not follow links inside its store. "
                + "Remove the link (or replace it with the file it points to)"
        case .unreadableState(let location, let reason):
            "cannot read the state in \(location): \(reason). The file was left untouched"
        case .io(let location, .invalidURL(let problem)):
            "cannot use the store \(location) as written: \(problem)"
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
